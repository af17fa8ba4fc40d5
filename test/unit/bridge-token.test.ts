import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadBridgeToken } from '../../electron/bridge/bridge-token';

let dir: string;
let file: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tender-bridge-token-'));
  file = join(dir, 'bridge-token');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the bridge token', () => {
  it('is made once, kept readable by the counter only, and the same at the next start', () => {
    const first = loadBridgeToken(file);
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadBridgeToken(file)).toBe(first);
  });

  it('is made anew when the file is damaged, or deleted to change it', () => {
    const first = loadBridgeToken(file);
    writeFileSync(file, 'not a token\n');
    const second = loadBridgeToken(file);
    expect(second).not.toBe(first);
    expect(readFileSync(file, 'utf8').trim()).toBe(second);
    rmSync(file);
    expect(loadBridgeToken(file)).not.toBe(second);
  });
});
