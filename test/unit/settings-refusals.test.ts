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

describe('a setting that holds a card number', () => {
  it('is refused without repeating it, however it is typed, and nothing is kept', async () => {
    const { settings } = engine;
    const typings = [
      ['merchant_name', 'Shop 4111111111111111'],
      ['merchant_phone', '41111111111111111230'],
      ['receipt_footer', 'Thanks|4111\u200b1111\u200b1111\u200b1111'],
      ['merchant_address', '1 Main St|4111-1111.1111/1111'],
      ['smtp_user', 'till 4111 1111 1111 1111'],
      ['smtp_from', '4111111111111111@shop.example'],
      ['merchant_name', `${'x'.repeat(40)} 4111111111111111`],
    ] as const;
    for (const [name, typed] of typings) {
      const refusal = settings.refusal(name, typed) ?? '';
      expect(refusal, typed).not.toBe('');
      expect(refusal, typed).not.toMatch(/4111/);
      const failed = await settings.setFromText(name, typed).then(
        () => new Error('set'),
        (error: unknown) => error as Error,
      );
      expect(failed.message, typed).not.toBe('set');
      expect(failed.message, typed).not.toMatch(/4111/);
      expect(settings.get(name), typed).toBe('');
    }
    expect(settings.refusal('merchant_name', 'Shop 4111111111111111')).toMatch(/must not hold a card number/);
    await settings.setFromText('merchant_name', 'Table 12, 4 guests');
    expect(settings.get('merchant_name')).toBe('Table 12, 4 guests');
  });
});
