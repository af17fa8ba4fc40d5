/**
 * Receipts through the bridge, on a real engine and a real TCP printer listener: settings that keep
 * the mail password to themselves, previews, prints, what prints by itself after an approval, and a
 * printer that fails without touching the transaction.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchInvoke } from '../../electron/bridge/dispatch';
import type { Terminal } from '../../electron/bridge/terminal';
import { startTerminal } from '../support/terminal';
import { decodeEscPos } from '../support/escpos-decoder';
import { refusedPort, startFakePrinter, type FakePrinter } from '../support/fake-printer';
import { MASTERCARD, startTestGateway, VISA, type TestGateway } from '../support/gateway';

let t: TestGateway;
let terminal: Terminal;
let printer: FakePrinter;
let saleId: number;
let tabId: number;

async function invoke(channel: string, input?: unknown) {
  return dispatchInvoke(terminal.handlers, channel, input);
}

async function value(channel: string, input?: unknown) {
  const result = await invoke(channel, input);
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value as Record<string, unknown>;
}

beforeAll(async () => {
  t = await startTestGateway();
  terminal = await startTerminal(t, { shell: 'desktop' });
  // Receipt settings are settings: a manager changes them.
  await t.gateway.engine.staff.create({ name: 'Olga', role: 'manager', pin: '2580' }, 'test');
  await value('staff:sign-in', { pin: '2580' });
  printer = await startFakePrinter({ paperStatus: 0x12 });
  saleId = Number((await t.client.createTransaction({ type: 'SALE', amount: '60.00', ...VISA })).id);
  tabId = Number((await t.client.createTransaction({ type: 'AUTH', amount: '40.00', ...MASTERCARD })).id);
});
afterAll(async () => {
  await terminal.stop();
  await printer.close();
  await t.close();
});

describe('receipt settings', () => {
  it('are changed together and read back, the mail password only as set', async () => {
    const settings = await value('receipts:update-settings', {
      merchantName: 'Blue Door Bistro',
      merchantAddress: ['12 Harbour Street', ' ', 'Portland, ME'],
      footer: ['Thank you!'],
      printer: printer.address,
      width: 32,
      merchantCopy: 'above',
      merchantCopyAboveCents: 5000,
      smtpHost: 'mail.example.test',
      smtpPassword: 'correct horse',
    });
    expect(settings).toMatchObject({
      merchantName: 'Blue Door Bistro',
      merchantAddress: ['12 Harbour Street', 'Portland, ME'],
      footer: ['Thank you!'],
      printer: printer.address,
      width: 32,
      merchantCopy: 'above',
      merchantCopyAboveCents: 5000,
      smtp: { host: 'mail.example.test', passwordSet: true },
    });
    expect(JSON.stringify(settings)).not.toContain('correct horse');
    expect(t.gateway.engine.settings.display('smtp_password')).toBe('set (hidden)');
    const audit = JSON.stringify(await t.gateway.engine.reads.recentAudit(50));
    expect(audit).toContain('merchant_name');
    expect(audit).not.toContain('correct horse');
  });

  it('a bad value is refused and nothing changes', async () => {
    const result = await invoke('receipts:update-settings', {
      merchantName: 'Changed',
      printer: 'tcp://no port',
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
    expect(result.ok || result.error.message).toMatch(/is not a valid value for receipt_printer/);
    expect((await value('receipts:settings')).merchantName).toBe('Blue Door Bistro');
  });
});

describe('receipts of a transaction', () => {
  it('preview any copy at the paper width', async () => {
    await t.gateway.engine.settings.setFromText('tips_enabled', 'true');
    try {
      const preview = await value('receipts:preview', { id: tabId, copy: 'check' });
      expect(preview).toMatchObject({ id: tabId, copy: 'check', width: 32, title: 'AUTH (TAB)' });
      const lines = preview.lines as string[];
      expect(lines.every((line) => line.length <= 32)).toBe(true);
      // The tab screen's suggested percentages (15, 18, 20 until changed).
      expect(lines.join('\n')).toMatch(/^15% {2}tip \$6\.00\s+total \$46\.00$/m);
      expect(lines.join('\n')).not.toContain('5454545454545454');
    } finally {
      await t.gateway.engine.settings.setFromText('tips_enabled', 'false');
    }
  });

  it('preview a check that asks for no tip while the counter takes none', async () => {
    const preview = await value('receipts:preview', { id: tabId, copy: 'check' });
    const text = (preview.lines as string[]).join('\n');
    expect(text).not.toMatch(/^(TIP|TOTAL)\s+_+$|\btips?\b/im);
    expect(text).toMatch(/^TOTAL\s+\$40\.00$/m);
  });

  it('refuse the check of a transaction that is not a tab, in words', async () => {
    const refused = await invoke('receipts:preview', { id: saleId, copy: 'check' });
    expect(refused).toMatchObject({
      ok: false,
      error: {
        code: 'refused',
        message: `Transaction ${saleId} is not a tab (an approved AUTH not voided): only a tab has a check.`,
      },
    });
  });

  it('print on the receipt printer, and reprint', async () => {
    for (let time = 0; time < 2; time += 1) {
      const job = printer.nextJob();
      expect(await value('receipts:print', { id: saleId, copies: ['customer'] })).toEqual({
        message: `The printer at ${printer.address} took the receipt.`,
      });
      const preview = await value('receipts:preview', { id: saleId, copy: 'customer' });
      expect(decodeEscPos(await job).copies).toEqual([preview.lines]);
    }
  });

  it('after an approval print what the settings say: the merchant copy above its amount', async () => {
    const job = printer.nextJob();
    expect(await value('receipts:after-approval', { id: saleId })).toEqual({
      printed: ['merchant'],
      offerCustomerCopy: true,
    });
    const [copy] = decodeEscPos(await job).copies;
    expect(copy?.map((line) => line.trim())).toContain('MERCHANT COPY');
  });

  it('after a tab opens, print its check', async () => {
    const job = printer.nextJob();
    expect(await value('receipts:after-approval', { id: tabId })).toEqual({
      printed: ['check'],
      offerCustomerCopy: false,
    });
    expect(decodeEscPos(await job).copies[0]?.map((line) => line.trim())).toContain('CHECK');
  });

  it('a printer that refuses is reported, and the transaction stands', async () => {
    const port = await refusedPort();
    await value('receipts:update-settings', { printer: `tcp://127.0.0.1:${port}` });
    const after = await value('receipts:after-approval', { id: saleId });
    expect(after).toMatchObject({ printed: [], offerCustomerCopy: true });
    expect(after.problem).toBe(
      `The merchant copy did not print: The printer at 127.0.0.1:${port} refused the connection. Check that it is ` +
        `on and that ${port} is its raw printing port (9100 on most). The transaction went through.`,
    );
    const print = await invoke('receipts:print', { id: saleId, copies: ['customer'] });
    expect(print).toMatchObject({ ok: false, error: { code: 'unavailable' } });
    const [sale] = await t.client.listTransactions({ id: saleId });
    expect(sale).toMatchObject({ result: 'Approved', voided: 'false', amount: '60.00' });
    await value('receipts:update-settings', { printer: printer.address });
  });

  it('an unknown transaction is refused in words', async () => {
    const result = await invoke('receipts:preview', { id: 99999, copy: 'customer' });
    expect(result).toEqual({
      ok: false,
      error: { code: 'refused', message: 'No transaction has id 99999. Check the number.' },
    });
  });

  it('email without a mail server says what to set', async () => {
    await value('receipts:update-settings', { smtpHost: '' });
    const result = await invoke('receipts:email', { id: saleId, to: 'ada@example.test' });
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'unavailable',
        message:
          'No mail server is set. Set the SMTP server in Settings → Receipts & printer to email receipts.',
      },
    });
  });
});
