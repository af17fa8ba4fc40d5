/**
 * What a refused setting says about the text it refused: enough to see what was wrong, never a
 * password or key typed into it, since a refusal goes to the screen, the command line and its logs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../electron/gateway/engine';
import { openEngine } from '../../electron/gateway/open-store';

let dir: string;
let engine: Engine;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tender-settings-refusals-'));
  engine = await openEngine(dir);
});
afterEach(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

const PASSWORD = 's3cret-Pa55';

describe('a refused gateway address', () => {
  it('is repeated without the user name and password in it, however typed', async () => {
    const { settings } = engine;
    for (const [typed, shown] of [
      [`https://rae:${PASSWORD}@gateway.example.com/rest/v1`, 'https://***@gateway.example.com/rest/v1'],
      [`https://rae:${PASSWORD}@gateway.example.com/api`, 'https://***@gateway.example.com/api'],
      [`https://rae:pa/${PASSWORD}@gateway.example.com/rest/v1`, 'https://***@gateway.example.com/rest/v1'],
      [`https://rae:${PASSWORD}@pa@gateway.example.com/rest/v1`, 'https://***@gateway.example.com/rest/v1'],
      [`rae:${PASSWORD}@gateway.example.com/rest/v1`, '***@gateway.example.com/rest/v1'],
      [`https://gateway.example.com/rest/v1?key=${PASSWORD}`, 'https://gateway.example.com/rest/v1?***'],
    ] as const) {
      const refusal = settings.refusal('upstream_url', typed) ?? '';
      expect(refusal, typed).toContain(`"${shown}" is not a valid value for upstream_url`);
      expect(refusal, typed).not.toContain(PASSWORD);
      const failed = await settings.setFromText('upstream_url', typed).then(
        () => new Error('set'),
        (error: unknown) => error as Error,
      );
      expect(failed.message, typed).toContain(shown);
      expect(failed.message, typed).not.toContain(PASSWORD);
    }
    expect(settings.get('upstream_url')).toBe('');
  });

  it('without credentials is repeated as typed', () => {
    expect(engine.settings.refusal('upstream_url', 'http://gateway.example.com/rest/v1')).toContain(
      '"http://gateway.example.com/rest/v1" is not a valid value for upstream_url',
    );
  });
});
