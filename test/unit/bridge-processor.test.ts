/**
 * The payment processor settings on the bridge, through the dispatcher as the screens reach them,
 * on a real counter with a real gateway behind the fault proxy: the key never comes back, every
 * change and test needs a manager, and Test connection says what is wrong in words.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLoopbackCertificate } from '../../electron/gateway/crypto/certificate';
import { dispatchInvoke } from '../../electron/bridge/dispatch';
import type { Terminal } from '../../electron/bridge/terminal';
import { startTerminal } from '../support/terminal';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { swipe } from '../support/relay';
import { useUpstreamGateway } from '../support/upstream-gateway';
import { recentAudit } from '../support/gateway';

const upstream = useUpstreamGateway();
let t: TestGateway;
const running: Terminal[] = [];
const MANAGER_PIN = '2580';
const CASHIER_PIN = '1470';

beforeAll(async () => {
  t = await startTestGateway({ ownLedger: true });
  await t.gateway.engine.staff.create({ name: 'Olga', role: 'manager', pin: MANAGER_PIN }, 'test');
  await t.gateway.engine.staff.create({ name: 'Cal', role: 'cashier', pin: CASHIER_PIN }, 'test');
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((terminal) => terminal.stop()));
  await t.gateway.engine.settings.change([
    ['processor', 'simulator'],
    ['upstream_url', ''],
    ['upstream_api_key', ''],
    ['upstream_ca_file', ''],
  ]);
  await upstream().proxy.line('up');
});
afterAll(() => t.close());

async function counter(signIn: string) {
  const terminal = await startTerminal(t);
  running.push(terminal);
  await invoke(terminal, 'staff:sign-in', { pin: signIn });
  return terminal;
}

async function invoke(terminal: Terminal, channel: string, input?: unknown) {
  const result = await dispatchInvoke(terminal.handlers, channel, input);
  if (!result.ok) throw Object.assign(new Error(result.error.message), { code: result.error.code });
  return result.value as Record<string, unknown>;
}

const SECRET = () => upstream().key;

describe('the payment processor settings on the bridge', () => {
  it('a manager sets the gateway and chooses it; the key is told as set, never sent back', async () => {
    const terminal = await counter(MANAGER_PIN);
    expect(await invoke(terminal, 'processor:get')).toMatchObject({
      processor: 'simulator',
      apiKeySet: false,
    });
    const saved = await invoke(terminal, 'processor:update', {
      upstreamUrl: upstream().url,
      apiKey: SECRET(),
      caFile: upstream().caFile,
      timeoutSeconds: 10,
      offlineEnabled: true,
      offlineMaxAmountCents: 7500,
      processor: 'upstream',
    });
    expect(saved).toEqual({
      processor: 'upstream',
      upstreamUrl: upstream().url,
      apiKeySet: true,
      caFile: upstream().caFile,
      timeoutSeconds: 10,
      offlineEnabled: true,
      offlineMaxAmountCents: 7500,
      offlineMaxTotalCents: 50_000,
      offlineMaxHours: 24,
    });
    expect(JSON.stringify(await invoke(terminal, 'processor:get'))).not.toContain(SECRET());
    const audit = await recentAudit(t, 20);
    expect(audit.map((entry) => entry.subject)).toEqual(
      expect.arrayContaining(['processor', 'upstream_url', 'upstream_api_key', 'offline_max_amount']),
    );
    expect(JSON.stringify(audit)).not.toContain(SECRET());
    expect(audit.find((entry) => entry.subject === 'processor')?.actor).toContain('Olga');
  });

  it('a bad value changes nothing and says why', async () => {
    const terminal = await counter(MANAGER_PIN);
    await expect(
      invoke(terminal, 'processor:update', {
        upstreamUrl: 'http://gateway.example.com/rest/v1',
        apiKey: 'k',
      }),
    ).rejects.toMatchObject({
      code: 'invalid-input',
      message: expect.stringMatching(/upstream_url.*https:\/\//),
    });
    await expect(invoke(terminal, 'processor:update', { processor: 'upstream' })).rejects.toMatchObject({
      code: 'invalid-input',
      message: expect.stringMatching(/needs upstream_url and upstream_api_key/),
    });
    expect(await invoke(terminal, 'processor:get')).toMatchObject({
      processor: 'simulator',
      upstreamUrl: '',
      apiKeySet: false,
    });
  });

  it('a cashier can neither change nor test it', async () => {
    const terminal = await counter(CASHIER_PIN);
    await expect(invoke(terminal, 'processor:update', { offlineEnabled: true })).rejects.toMatchObject({
      code: 'pin-required',
    });
    await expect(invoke(terminal, 'processor:test', {})).rejects.toMatchObject({ code: 'pin-required' });
  });

  it('Test connection says in words: fine, key refused, certificate not trusted, unreachable', async () => {
    const terminal = await counter(MANAGER_PIN);
    const entered = { upstreamUrl: upstream().url, caFile: upstream().caFile };
    const fine = await invoke(terminal, 'processor:test', { ...entered, apiKey: SECRET() });
    expect(fine).toMatchObject({ ok: true, message: expect.stringMatching(/^Connected: /) });

    const refused = await invoke(terminal, 'processor:test', {
      ...entered,
      apiKey: 'tender_0000000000000000_x',
    });
    expect(refused).toMatchObject({ ok: false, problem: 'key refused' });
    expect(refused.message).toMatch(/Key refused \(401\)/);

    const untrusted = await invoke(terminal, 'processor:test', {
      upstreamUrl: upstream().url,
      apiKey: SECRET(),
    });
    expect(untrusted).toMatchObject({ ok: false, problem: 'certificate' });

    await upstream().proxy.line('refuse');
    const down = await invoke(terminal, 'processor:test', { ...entered, apiKey: SECRET() });
    expect(down).toMatchObject({ ok: false, problem: 'unreachable' });
    expect(down.message).toMatch(/^Unreachable: .* refused the connection/);
  });

  it('tells the line and the declined offline sales, which only a manager marks as seen', async () => {
    const { engine } = t.gateway;
    await engine.settings.change([
      ['upstream_url', upstream().url],
      ['upstream_api_key', SECRET()],
      ['upstream_ca_file', upstream().caFile],
      ['upstream_timeout_seconds', '2'],
      ['offline_enabled', 'true'],
      ['processor', 'upstream'],
    ]);
    try {
      const cashier = await counter(CASHIER_PIN);
      await upstream().proxy.line('refuse');
      const sale = await t.client.createTransaction({
        type: 'SALE',
        amount: '8.00',
        email: 'ana@example.com',
        ...swipe({ pan: '4000000000000002', expMmyy: '1230' }),
      });
      await expect.poll(async () => (await invoke(cashier, 'processor:line')).line).toBe('offline');
      expect(await invoke(cashier, 'processor:line')).toMatchObject({
        processor: 'upstream',
        offlineEnabled: true,
        waiting: { count: 1, cents: 800 },
        declined: [],
      });
      await upstream().proxy.line('up');
      await engine.forwarder.drain();
      const line = await invoke(cashier, 'processor:line');
      expect(line).toMatchObject({
        line: 'online',
        waiting: { count: 0, cents: 0, oldest: null },
        declined: [{ id: sale.id, amountCents: 800, lastFour: '0002', email: 'ana@example.com' }],
      });
      await expect(invoke(cashier, 'processor:acknowledge', { id: sale.id })).rejects.toMatchObject({
        code: 'pin-required',
      });
      const seen = await invoke(cashier, 'processor:acknowledge', { id: sale.id, pin: MANAGER_PIN });
      expect(seen.declined).toEqual([]);
      const audit = await recentAudit(t, 5);
      expect(audit.find((entry) => entry.action === 'offline_acknowledged')).toMatchObject({
        subject: `transaction ${sale.id}`,
        actor: expect.stringContaining('Olga'),
      });
      await expect(
        invoke(cashier, 'processor:acknowledge', { id: sale.id, pin: MANAGER_PIN }),
      ).rejects.toMatchObject({
        code: 'refused',
      });
    } finally {
      await upstream().proxy.line('up');
    }
  });

  it('holds no swipe key with the gateway chosen, takes none, and keeps the gateway while sales made offline wait', async () => {
    const manager = await counter(MANAGER_PIN);
    const BDK = 'FEDCBA98765432100123456789ABCDEF';
    await invoke(manager, 'settings:set-swipe-key', { bdk: BDK });
    await invoke(manager, 'processor:update', {
      upstreamUrl: upstream().url,
      apiKey: SECRET(),
      caFile: upstream().caFile,
      // A time limit no other test sets: a new connection to the gateway, not one an earlier test
      // kept, so that the sale made once the line is down is sure never to have left.
      timeoutSeconds: 3,
      offlineEnabled: true,
      processor: 'upstream',
    });
    const { engine } = t.gateway;
    expect(engine.admin.setting('swipe_bdk')).toBe('');
    expect((await invoke(manager, 'settings:get')).swipeKey).toEqual({
      held: false,
      testKey: false,
      kcv: '',
      description: expect.stringMatching(/^none held: with processor upstream/),
    });
    await expect(invoke(manager, 'settings:set-swipe-key', { bdk: BDK })).rejects.toMatchObject({
      code: 'invalid-input',
      message: expect.stringMatching(/^swipe_bdk cannot be set while processor is upstream: /),
    });
    try {
      await upstream().proxy.line('refuse');
      await t.client.createTransaction({
        type: 'SALE',
        amount: '6.00',
        ...swipe({ pan: '4111111111111111', expMmyy: '1230' }),
      });
      await expect(invoke(manager, 'processor:update', { processor: 'simulator' })).rejects.toMatchObject({
        code: 'invalid-input',
        message: expect.stringMatching(
          /^processor cannot leave upstream while 1 transaction made offline still waits to be forwarded .*Leave processor upstream until nothing waits/,
        ),
      });
      expect((await invoke(manager, 'processor:get')).processor).toBe('upstream');
      await upstream().proxy.line('up');
      expect(await engine.forwarder.drain()).toEqual({ waiting: 0 });
      await invoke(manager, 'processor:update', { processor: 'simulator' });
      expect((await invoke(manager, 'settings:get')).swipeKey).toMatchObject({ held: true, testKey: true });
    } finally {
      await upstream().proxy.line('up');
    }
  });

  it('tests the kept key only against the kept address', async () => {
    const terminal = await counter(MANAGER_PIN);
    await invoke(terminal, 'processor:update', {
      upstreamUrl: upstream().url,
      apiKey: SECRET(),
      caFile: upstream().caFile,
    });
    expect(await invoke(terminal, 'processor:test', {})).toMatchObject({ ok: true });
    const before = upstream().proxy.seen.length;
    const elsewhere = await invoke(terminal, 'processor:test', {
      upstreamUrl: 'https://attacker.example/rest/v1',
    });
    expect(elsewhere).toMatchObject({ ok: false, problem: 'not set' });
    expect(elsewhere.message).toMatch(/kept key is only ever sent to the kept address/);
    // Other certificates trusted would let another server answer for the kept address.
    const otherCa = join(t.dataDir, 'other-ca.pem');
    writeFileSync(otherCa, (await createLoopbackCertificate()).certificatePem);
    const otherTrust = await invoke(terminal, 'processor:test', { caFile: otherCa });
    expect(otherTrust).toMatchObject({ ok: false, problem: 'not set' });
    expect(otherTrust.message).toMatch(/kept key is only ever sent to the kept address, trusting the kept/);
    expect(upstream().proxy.seen.length).toBe(before);
  });

  it('tests a CA file typed when none is kept only with the key typed in', async () => {
    const terminal = await counter(MANAGER_PIN);
    await invoke(terminal, 'processor:update', { upstreamUrl: upstream().url, apiKey: SECRET() });
    const before = upstream().proxy.seen.length;
    // Trusting the typed file too would let a server it vouches for answer for the kept address.
    const typedTrust = await invoke(terminal, 'processor:test', { caFile: upstream().caFile });
    expect(typedTrust).toMatchObject({ ok: false, problem: 'not set' });
    expect(typedTrust.message).toMatch(/kept key is only ever sent to the kept address, trusting the kept/);
    expect(upstream().proxy.seen.length).toBe(before);
    // With the key typed in, the same test goes through.
    expect(
      await invoke(terminal, 'processor:test', { caFile: upstream().caFile, apiKey: SECRET() }),
    ).toMatchObject({ ok: true });
  });
});
