/** The payment processor's settings: their defaults, the forms they take, and what they take together. */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLoopbackCertificate } from '../../electron/gateway/crypto/certificate';
import type { Engine } from '../../electron/gateway/engine';
import { openEngine } from '../../electron/gateway/open-store';

let dir: string;
let engine: Engine;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tender-processor-settings-'));
  engine = await openEngine(dir);
});
afterEach(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

const KEY = 'gw_live_8f3Kq2Xw9pLm4Rt7Zc1Vb6Nd';

describe('the payment processor settings', () => {
  it('start as the simulator, with the offline limits of the documentation', () => {
    const { settings } = engine;
    expect(settings.get('processor')).toBe('simulator');
    expect(settings.get('upstream_url')).toBe('');
    expect(settings.get('upstream_api_key')).toBe('');
    expect(settings.get('upstream_ca_file')).toBe('');
    expect(settings.get('upstream_timeout_seconds')).toBe(20);
    expect(settings.get('offline_enabled')).toBe(false);
    expect(settings.display('offline_max_amount')).toBe('50.00');
    expect(settings.display('offline_max_total')).toBe('500.00');
    expect(settings.get('offline_max_hours')).toBe(24);
  });

  it('take the gateway address over https only, ending in /rest/v1, without credentials', async () => {
    const { settings } = engine;
    await settings.setFromText('upstream_url', ' https://gateway.example.com:8443/rest/v1/ ');
    expect(settings.get('upstream_url')).toBe('https://gateway.example.com:8443/rest/v1');
    for (const bad of [
      'http://gateway.example.com/rest/v1',
      'https://gateway.example.com/api',
      'https://user:secret@gateway.example.com/rest/v1',
      'https://gateway.example.com/rest/v1?key=1',
      'https://gateway.example.com/rest/v1#x',
      'gateway.example.com/rest/v1',
      'ftp://gateway.example.com/rest/v1',
    ]) {
      await expect(settings.setFromText('upstream_url', bad), bad).rejects.toThrow(
        /not a valid value for upstream_url: .*https:\/\//,
      );
    }
    expect(settings.get('upstream_url')).toBe('https://gateway.example.com:8443/rest/v1');
  });

  it('keep the gateway key like a password: set, described, never shown or written in the audit log', async () => {
    const { settings } = engine;
    await settings.setFromText('upstream_api_key', KEY);
    expect(settings.get('upstream_api_key')).toBe(KEY);
    expect(settings.display('upstream_api_key')).toBe('set (hidden)');
    const refusal = settings.refusal('upstream_api_key', `${KEY}\n`);
    expect(refusal).toMatch(/^That value is not a valid value for upstream_api_key/);
    expect(refusal).not.toContain(KEY);
    const audit = JSON.stringify(await engine.reads.recentAudit(10));
    expect(audit).toContain('upstream_api_key');
    expect(audit).not.toContain(KEY);
  });

  it('take a CA file only when it holds PEM certificates', async () => {
    const { settings } = engine;
    const pem = join(dir, 'gateway-ca.pem');
    writeFileSync(pem, (await createLoopbackCertificate()).certificatePem);
    await settings.setFromText('upstream_ca_file', pem);
    expect(settings.get('upstream_ca_file')).toBe(pem);
    const notPem = join(dir, 'notes.txt');
    writeFileSync(notPem, 'not a certificate');
    await expect(settings.setFromText('upstream_ca_file', notPem)).rejects.toThrow(
      /holds no PEM certificate/,
    );
    await expect(settings.setFromText('upstream_ca_file', join(dir, 'missing.pem'))).rejects.toThrow(
      /cannot be read \(ENOENT\)/,
    );
    await expect(settings.setFromText('upstream_ca_file', 'relative/ca.pem')).rejects.toThrow(/full path/);
    expect(settings.get('upstream_ca_file')).toBe(pem);
    await settings.setFromText('upstream_ca_file', '');
    expect(settings.get('upstream_ca_file')).toBe('');
  });

  it('take a timeout of 2 to 120 seconds and offline hours of 1 to 168', async () => {
    const { settings } = engine;
    for (const bad of ['1', '121', '2.5', 'twenty']) {
      await expect(settings.setFromText('upstream_timeout_seconds', bad), bad).rejects.toThrow(/2 to 120/);
    }
    await settings.setFromText('upstream_timeout_seconds', '2');
    expect(settings.get('upstream_timeout_seconds')).toBe(2);
    await expect(settings.setFromText('offline_max_hours', '0')).rejects.toThrow(/1 to 168/);
    await expect(settings.setFromText('offline_max_hours', '169')).rejects.toThrow(/1 to 168/);
    await settings.setFromText('offline_max_hours', '72');
    expect(settings.get('offline_max_hours')).toBe(72);
  });

  it('take offline limits in dollars above zero, a sale never above the total', async () => {
    const { settings } = engine;
    await expect(settings.setFromText('offline_max_amount', '0.00')).rejects.toThrow(/not a valid value/);
    await expect(settings.setFromText('offline_max_amount', '50')).rejects.toThrow(/not a valid value/);
    await expect(settings.setFromText('offline_max_amount', '600.00')).rejects.toThrow(
      /offline_max_amount \(600\.00\) cannot be above offline_max_total \(500\.00\)/,
    );
    await settings.change([
      ['offline_max_total', '1000.00'],
      ['offline_max_amount', '600.00'],
    ]);
    expect(settings.get('offline_max_amount')).toBe(60_000);
    await expect(settings.setFromText('offline_max_total', '100.00')).rejects.toThrow(/cannot be above/);
    expect(settings.get('offline_max_total')).toBe(100_000);
  });

  it('choose the gateway only once its address and key are set, and keep them while it is chosen', async () => {
    const { settings } = engine;
    await expect(settings.setFromText('processor', 'upstream')).rejects.toThrow(
      /processor upstream needs upstream_url and upstream_api_key set first/,
    );
    await settings.change([
      ['upstream_url', 'https://gateway.example.com/rest/v1'],
      ['upstream_api_key', KEY],
      ['processor', 'UPSTREAM'],
    ]);
    expect(settings.get('processor')).toBe('upstream');
    await expect(settings.setFromText('upstream_api_key', '')).rejects.toThrow(/needs upstream_api_key/);
    await expect(settings.setFromText('processor', 'gateway')).rejects.toThrow(/simulator .* or upstream/);
    await settings.setFromText('processor', 'simulator');
    await settings.setFromText('upstream_api_key', '');
    expect(settings.get('upstream_api_key')).toBe('');
  });
});

describe('a secret kept for one place', () => {
  const entries = async () =>
    (await engine.reads.recentAudit(20)).filter((entry) => entry.action === 'setting_change');

  it('the gateway key is cleared when the address changes without a new key, and kept when one comes with it', async () => {
    const { settings } = engine;
    await settings.change([
      ['upstream_url', 'https://a.example.com/rest/v1'],
      ['upstream_api_key', KEY],
    ]);
    // The same address again moves nothing.
    await settings.setFromText('upstream_url', 'https://a.example.com/rest/v1/');
    expect(settings.get('upstream_api_key')).toBe(KEY);

    await settings.setFromText('upstream_url', 'https://b.example.com/rest/v1');
    expect(settings.get('upstream_api_key')).toBe('');
    expect((await entries())[0]).toMatchObject({
      subject: 'upstream_api_key',
      detail: 'set (hidden) → not set',
    });

    await settings.change([
      ['upstream_url', 'https://c.example.com/rest/v1'],
      ['upstream_api_key', KEY],
    ]);
    expect(settings.get('upstream_api_key')).toBe(KEY);
  });

  it('the gateway key is cleared when the certificates trusted for the gateway change without a new key', async () => {
    const { settings } = engine;
    const [first, second] = [join(dir, 'first.pem'), join(dir, 'second.pem')];
    writeFileSync(first, (await createLoopbackCertificate()).certificatePem);
    writeFileSync(second, (await createLoopbackCertificate()).certificatePem);
    await settings.change([
      ['upstream_url', 'https://a.example.com/rest/v1'],
      ['upstream_api_key', KEY],
    ]);
    // Trusting a private gateway's certificate once the key is set is where the key was meant to go.
    await settings.setFromText('upstream_ca_file', first);
    expect(settings.get('upstream_api_key')).toBe(KEY);
    // Another certificate would let another server stand for the same address.
    await settings.setFromText('upstream_ca_file', second);
    expect(settings.get('upstream_api_key')).toBe('');
    await settings.change([
      ['upstream_ca_file', first],
      ['upstream_api_key', KEY],
      ['processor', 'upstream'],
    ]);
    expect(settings.get('upstream_api_key')).toBe(KEY);
    // The gateway in use keeps its key: such a change is refused, and nothing changes.
    await expect(settings.setFromText('upstream_ca_file', second)).rejects.toThrow(/upstream_api_key/);
    expect(settings.get('upstream_ca_file')).toBe(first);
    expect(settings.get('upstream_api_key')).toBe(KEY);
  });

  it('the gateway in use is not moved to another address without its key, and nothing changes', async () => {
    const { settings } = engine;
    await settings.change([
      ['upstream_url', 'https://a.example.com/rest/v1'],
      ['upstream_api_key', KEY],
      ['processor', 'upstream'],
    ]);
    await expect(settings.setFromText('upstream_url', 'https://b.example.com/rest/v1')).rejects.toThrow(
      /upstream_api_key/,
    );
    expect(settings.get('upstream_url')).toBe('https://a.example.com/rest/v1');
    expect(settings.get('upstream_api_key')).toBe(KEY);
  });

  it('a secret given before its place was first set is kept for it, and the key given with the address stays', async () => {
    const { settings } = engine;
    await settings.setFromText('upstream_api_key', KEY);
    await settings.setFromText('upstream_url', 'https://a.example.com/rest/v1');
    expect(settings.get('upstream_api_key')).toBe(KEY);
    await settings.setFromText('smtp_password', 'S3cretSMTP');
    await settings.setFromText('smtp_host', 'mail.example.com');
    await settings.setFromText('smtp_port', '465');
    await settings.setFromText('smtp_security', 'tls');
    await settings.setFromText('smtp_user', 'shop@example.com');
    expect(settings.get('smtp_password')).toBe('S3cretSMTP');
  });

  it.each([
    ['smtp_host', 'mail.elsewhere.example'],
    ['smtp_security', 'none'],
  ])('the mail password is cleared when %s changes without a new password', async (name, value) => {
    const { settings } = engine;
    await settings.change([
      ['smtp_host', 'mail.example.com'],
      ['smtp_user', 'shop@example.com'],
      ['smtp_password', 'S3cretSMTP'],
    ]);
    await settings.setFromText('smtp_from', 'receipts@example.com');
    expect(settings.get('smtp_password')).toBe('S3cretSMTP');
    await settings.setFromText(name, value);
    expect(settings.get('smtp_password')).toBe('');
    await settings.change([
      [name, name === 'smtp_security' ? 'starttls' : `x${value}`],
      ['smtp_password', 'N3wSMTP'],
    ]);
    expect(settings.get('smtp_password')).toBe('N3wSMTP');
  });
});

describe('the swipe key (BDK) with the merchant gateway as the processor', () => {
  const BDK = 'FEDCBA98765432100123456789ABCDEF';
  const gateway = [
    ['upstream_url', 'https://gateway.example.com/rest/v1'],
    ['upstream_api_key', KEY],
  ] as const;
  const bdkEntries = async () =>
    (await engine.reads.recentAudit(20)).filter((entry) => entry.subject === 'swipe_bdk');
  /** Every file of the data dir, as one text, to look for the key in. */
  const dataDirFiles = () =>
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => readFileSync(join(entry.parentPath, entry.name)).toString('latin1'))
      .join('\n');

  it('is erased in the same write that chooses the gateway, and the audit log says so by its check value only', async () => {
    const { settings } = engine;
    await settings.setFromText('swipe_bdk', BDK);
    const kcv = settings.display('swipe_bdk').slice(-6);
    await settings.change([...gateway]);
    expect(engine.admin.setting('swipe_bdk')).toBe(BDK);
    await settings.setFromText('processor', 'upstream');
    expect(engine.admin.setting('swipe_bdk')).toBe('');
    expect(settings.holdsBdk()).toBe(false);
    expect(settings.display('swipe_bdk')).toMatch(/^none held: with processor upstream/);
    const [erased] = await bdkEntries();
    expect(erased).toMatchObject({
      subject: 'swipe_bdk',
      detail: `custom BDK, KCV ${kcv} → erased: processor upstream holds no BDK`,
    });
    expect(JSON.stringify(await engine.reads.recentAudit(50))).not.toContain(BDK);
    // Nothing of the key is left in the data dir's files once the engine has closed them.
    await engine.close();
    expect(dataDirFiles()).not.toContain(BDK);
    engine = await openEngine(dir);
  });

  it('is not erased when the gateway is refused for want of its key', async () => {
    const { settings } = engine;
    await settings.setFromText('swipe_bdk', BDK);
    await expect(settings.setFromText('processor', 'upstream')).rejects.toThrow(/needs upstream_url/);
    expect(settings.get('swipe_bdk')).toBe(BDK);
  });

  it('cannot be set while the gateway is the processor, which the refusal says, and nothing changes', async () => {
    const { settings } = engine;
    await settings.change([...gateway, ['processor', 'upstream']]);
    const before = await engine.reads.recentAudit(50);
    for (const changes of [
      [['swipe_bdk', BDK]],
      [
        ['swipe_bdk', BDK],
        ['processor', 'upstream'],
      ],
    ] as const) {
      await expect(settings.change(changes)).rejects.toThrow(
        /^swipe_bdk cannot be set while processor is upstream: swipes go to the merchant's gateway as the reader encrypted them.*Nothing was changed\.$/,
      );
    }
    // Nor given with the change that chooses the gateway.
    await settings.setFromText('processor', 'simulator');
    await expect(
      settings.change([
        ['swipe_bdk', BDK],
        ['processor', 'upstream'],
      ]),
    ).rejects.toThrow(/swipe_bdk cannot be set while processor is upstream/);
    expect(engine.admin.setting('swipe_bdk')).toBeUndefined();
    expect((await engine.reads.recentAudit(50)).length).toBe(before.length + 1);
    // Once the simulator approves again, a key is taken.
    await settings.setFromText('swipe_bdk', BDK);
    expect(settings.get('swipe_bdk')).toBe(BDK);
  });

  it('kept from before, with the gateway as the processor, is erased as the engine starts, in the audit log', async () => {
    await engine.settings.change([...gateway, ['processor', 'upstream']]);
    // A data dir of an earlier version: the key stayed when the gateway was chosen.
    await engine.admin.write((tx) => tx.setSetting('swipe_bdk', BDK));
    await engine.close();
    engine = await openEngine(dir);
    expect(engine.admin.setting('swipe_bdk')).toBe('');
    const [erased] = await bdkEntries();
    expect(erased).toMatchObject({
      actor: 'local administrator',
      detail: expect.stringMatching(
        /^custom BDK, KCV [0-9A-F]{6} → erased: processor upstream holds no BDK$/,
      ),
    });
    expect(JSON.stringify(erased)).not.toContain(BDK);
    // Started again, nothing is left to erase, and nothing more is recorded.
    await engine.close();
    engine = await openEngine(dir);
    expect(await bdkEntries()).toHaveLength(1);
  });
});
