/**
 * No receipt output holds a card number or expiry: the API's text, JSON and XML for every copy and
 * width, the bytes sent to the printer, the email as it left for the mail server, the command line's
 * output, what failures say, and anything the engine wrote to its logs meanwhile.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MailError } from '../../electron/gateway/receipts/mailer';
import { refusedPort, startFakePrinter, type FakePrinter } from '../support/fake-printer';
import { decodeEscPos } from '../support/escpos-decoder';
import {
  AMEX,
  DECLINED_CARD,
  DISCOVER,
  MASTERCARD,
  storeArguments,
  useTestGateway,
  VISA,
} from '../support/gateway';

const api = useTestGateway({ tips: true });
const CARDS = [VISA, MASTERCARD, AMEX, DISCOVER, DECLINED_CARD];
const outputs: string[] = [];
const logged: string[] = [];
let printer: FakePrinter;
let smtp: SMTPServer;
const rawMails: string[] = [];
const ids: string[] = [];
/** The tabs among them (approved AUTHs), the only transactions with a check. */
const tabs = new Set<string>();

beforeAll(async () => {
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
    // Records what the engine writes to its logs, then writes it as before.
    vi.spyOn(stream, 'write').mockImplementation(((...args: unknown[]) => {
      const [chunk] = args;
      logged.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('latin1'));
      return write(...args);
    }) as typeof stream.write);
  }
  printer = await startFakePrinter();
  smtp = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        rawMails.push(Buffer.concat(chunks).toString('latin1'));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { settings } = api.gateway.engine;
  await settings.setFromText('merchant_name', 'Blue Door Bistro');
  await settings.setFromText('smtp_host', '127.0.0.1');
  await settings.setFromText('smtp_port', String((smtp.server.address() as { port: number }).port));
  await settings.setFromText('smtp_security', 'none');
  await settings.setFromText('smtp_from', 'receipts@bluedoor.test');

  for (const card of CARDS) {
    const sale = await api.client.createTransaction({
      type: 'SALE',
      amount: '31.17',
      ...card,
      email: 'a@example.test',
    });
    ids.push(sale.id ?? '');
    const tab = await api.client.createTransaction({ type: 'AUTH', amount: '18.40', ...card });
    ids.push(tab.id ?? '');
    if (tab.result === 'Approved') tabs.add(tab.id ?? '');
  }
  const capture = await api.client.createTransaction({
    type: 'CAPTURE',
    id: ids[1],
    amount: '18.40',
    tip_amount: '3.00',
  });
  ids.push(capture.id ?? '');
  // Captured with its tip, the tab has no check any more: its tip is no longer to be written.
  tabs.delete(ids[1] ?? '');
  const voided = await api.client.createTransaction({ type: 'VOID', id: ids[0] });
  ids.push(voided.id ?? '');
  const refund = await api.client.createTransaction({ type: 'REFUND', amount: '5.00', ...VISA });
  ids.push(refund.id ?? '');
});
afterAll(async () => {
  vi.restoreAllMocks();
  await printer.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

describe('card data on receipts', () => {
  it('appears in no output, only as brand and last four digits', async () => {
    const receipts = api.gateway.engine.receipts({
      printer: { timeoutMs: 1_500, statusWaitMs: 50 },
    });
    // Checks with their tip lines too, which only a tab has.
    await api.gateway.engine.settings.setFromText('tips_enabled', 'true');
    for (const id of ids.filter(Boolean)) {
      const copies = tabs.has(id)
        ? (['customer', 'merchant', 'check'] as const)
        : (['customer', 'merchant'] as const);
      for (const copy of copies) {
        for (const width of ['32', '42', '48']) {
          for (const accept of ['text/plain', 'application/json', 'application/xml']) {
            const response = await api.request(`transactions/${id}/receipt?copy=${copy}&width=${width}`, {
              headers: { api_key: api.key, accept },
            });
            expect(response.status).toBe(200);
            outputs.push(response.body);
          }
        }
      }
      const job = printer.nextJob();
      await receipts.print(Number(id), copies, {
        printer: printer.address,
        tipPercentages: [18],
      });
      const bytes = await job;
      outputs.push(bytes.toString('latin1'), decodeEscPos(bytes).copies.flat().join('\n'));
      outputs.push(await receipts.email(Number(id), 'guest@example.test'));
    }
    expect(rawMails.length).toBeGreaterThanOrEqual(ids.length);
    outputs.push(...rawMails);

    const port = await refusedPort();
    outputs.push(
      String(
        await receipts
          .print(Number(ids[0]), ['customer'], { printer: `tcp://127.0.0.1:${port}` })
          .catch((e: unknown) => e),
      ),
      String(await receipts.email(Number(ids[0]), '4111111111111111@example.test').catch((e: unknown) => e)),
    );

    const cli = await new Promise<string>((resolve) => {
      const root = join(import.meta.dirname, '..', '..');
      const child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          join(root, 'electron', 'cli.ts'),
          'receipt',
          '--id',
          ids[2] ?? '',
          '--data-dir',
          api.dataDir,
          ...storeArguments(api),
        ],
        { cwd: root },
      );
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
      child.on('close', () => resolve(text));
    });
    expect(cli).toContain('Mastercard **** 5454');
    outputs.push(cli);

    const everything = [...outputs, ...logged].join('\n');
    for (const card of CARDS) {
      expect(everything).not.toContain(card.card);
      // Any 13 to 19 digits in a row would be a card number, whatever the formatting.
      expect(everything).not.toMatch(new RegExp(card.card.slice(0, 6) + '\\d{3,9}' + card.card.slice(-4)));
    }
    // Without the mails' Message-IDs: each is a UUID, and any of its groups of four may read 1230.
    const withoutMessageIds = everything.replace(/[\da-f]{8}(?:-[\da-f]{4}){3}-[\da-f]{12}/gi, '');
    expect(withoutMessageIds).not.toMatch(/\b1230\b|12\/30/);
    for (const card of [VISA, MASTERCARD, AMEX, DISCOVER]) {
      expect(everything).toContain(`**** ${card.card.slice(-4)}`);
    }
  });

  it('an address that holds a card number is refused without repeating it', async () => {
    const receipts = api.gateway.engine.receipts();
    const error = await receipts.email(Number(ids[0]), '4111 1111 1111 1111').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MailError);
    expect((error as Error).message).not.toContain('4111 1111 1111 1111');
  });
});
