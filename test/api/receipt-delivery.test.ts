/**
 * Receipts on their way out: to a real TCP listener standing in for the network printer, through a
 * print queue command, and to a real SMTP server. Whatever the printer or mail server does, the
 * transaction stays as it was.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReceiptService } from '../../electron/gateway/receipts/receipt-service';
import { MailError } from '../../electron/gateway/receipts/mailer';
import { PrinterError } from '../../electron/gateway/receipts/printer';
import { RECEIPT_WIDTHS } from '../../electron/gateway/receipts/receipt';
import { decodeEscPos } from '../support/escpos-decoder';
import { refusedPort, startFakePrinter, type FakePrinter } from '../support/fake-printer';
import { AMEX, MASTERCARD, useTestGateway, VISA } from '../support/gateway';

const api = useTestGateway({ tips: true });
const TEST_CARDS = ['4111111111111111', '5454545454545454', '371449635398431', '6011111111111117'];

function expectNoCardNumber(output: string) {
  for (const card of TEST_CARDS) expect(output).not.toContain(card);
  expect(output).not.toMatch(/\b1230\b/); // the test cards' expiry
}

let saleId: number;
let tabId: number;
let service: ReceiptService;

beforeAll(async () => {
  const { engine } = api.gateway;
  for (const [name, value] of [
    ['merchant_name', 'Blue Door Bistro'],
    ['merchant_address', '12 Harbour Street|Portland, ME 04101'],
    ['merchant_phone', '(207) 555-0142'],
    ['receipt_footer', 'Thank you!'],
  ] as const) {
    await engine.settings.setFromText(name, value);
  }
  const sale = await api.client.createTransaction({
    type: 'SALE',
    amount: '27.50',
    ...VISA,
    csc: '123',
    invoice: 'INV-88',
    email: 'ada@example.test',
  });
  saleId = Number(sale.id);
  const tab = await api.client.createTransaction({
    type: 'AUTH',
    amount: '40.00',
    ...MASTERCARD,
    server_id: '07',
  });
  tabId = Number(tab.id);
  await api.client.createTransaction({ type: 'SALE', amount: '5.00', ...AMEX });
  service = engine.receipts({
    printer: { timeoutMs: 1_500, statusWaitMs: 100 },
    mailTimeoutMs: 2_000,
  });
});

describe('a network printer', () => {
  let printer: FakePrinter;
  beforeAll(async () => {
    printer = await startFakePrinter();
  });
  afterAll(() => printer.close());

  it('gets each copy at each width, cut apart, with the lines of the text receipt', async () => {
    for (const width of RECEIPT_WIDTHS) {
      for (const copies of [['customer'], ['merchant'], ['customer', 'merchant']] as const) {
        const job = printer.nextJob();
        const said = await service.print(saleId, copies, { printer: printer.address, width });
        expect(said).toBe(`The printer at ${printer.address} took the receipt.`);
        const paper = decodeEscPos(await job);
        expect(paper.cuts).toBe(copies.length);
        const expected = await Promise.all(
          copies.map(async (copy) => (await service.render(saleId, copy, { width })).lines),
        );
        expect(paper.copies).toEqual(expected);
        for (const lines of paper.copies) {
          expect(lines.every((line) => line.length <= width)).toBe(true);
          expect(lines.join('\n')).toContain('Visa **** 1111');
          expectNoCardNumber(lines.join('\n'));
        }
      }
    }
    const merchantCopy = (await service.render(saleId, 'merchant', { width: 42 })).lines;
    expect(merchantCopy.map((line) => line.trim())).toContain('MERCHANT COPY');
  });

  it('gets the check of a tab with blank tip lines and the suggested tips', async () => {
    const job = printer.nextJob();
    await service.print(tabId, ['check'], { printer: printer.address, width: 42, tipPercentages: [15, 20] });
    const [check] = decodeEscPos(await job).copies;
    expect(check).toBeDefined();
    const text = (check ?? []).join('\n');
    expect(text).toMatch(/^AMOUNT\s+\$40\.00$/m);
    expect(text).toMatch(/^TIP\s+_{20}$/m);
    expect(text).toMatch(/^TOTAL\s+_{20}$/m);
    expect(text).toMatch(/^15% {2}tip \$6\.00\s+total \$46\.00$/m);
    expect(text).toMatch(/^20% {2}tip \$8\.00\s+total \$48\.00$/m);
    expect(text).toContain('Mastercard **** 5454');
    expect(text).toContain('Signature');
    expectNoCardNumber(text);
  });

  it('prints the test page from the settings', async () => {
    await api.gateway.engine.settings.setFromText('receipt_printer', printer.address);
    await api.gateway.engine.settings.setFromText('receipt_width', '32');
    const job = printer.nextJob();
    await service.testPrint();
    const [page] = decodeEscPos(await job).copies;
    expect(page).toEqual(
      expect.arrayContaining(['Blue Door Bistro', 'TEST PRINT', '1234567890'.repeat(4).slice(0, 32)]),
    );
    await api.gateway.engine.settings.setFromText('receipt_width', '42');
  });
});

describe('a printer that cannot print', () => {
  it('refusing the connection is reported at once, in words', async () => {
    const port = await refusedPort();
    const error = await service
      .print(saleId, ['customer'], { printer: `tcp://127.0.0.1:${port}` })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PrinterError);
    expect((error as Error).message).toBe(
      `The printer at 127.0.0.1:${port} refused the connection. Check that it is on and that ${port} is its raw printing port (9100 on most).`,
    );
  });

  it('out of paper says so and is sent nothing more', async () => {
    const printer = await startFakePrinter({ paperStatus: 0x72 });
    // Time enough for the status on a busy machine: a printer that has not answered by then is sent
    // the receipt anyway, as one that never reports its status would be.
    const patient = api.gateway.engine.receipts({
      printer: { timeoutMs: 15_000, statusWaitMs: 10_000 },
    });
    try {
      const job = printer.nextJob();
      const error = await patient
        .print(saleId, ['customer'], { printer: printer.address })
        .catch((e: unknown) => e);
      expect((error as Error).message).toBe(
        `The printer at 127.0.0.1:${printer.port} is out of paper. Load a new roll, then print again.`,
      );
      const paper = decodeEscPos(await job);
      expect(paper.statusRequests).toBe(1);
      expect(paper.copies).toEqual([]);
      expect(paper.uncut).toEqual([]);
    } finally {
      await printer.close();
    }
  });

  it('with paper, a printer that reports its status is sent the receipt at once', async () => {
    const printer = await startFakePrinter({ paperStatus: 0x12 });
    try {
      const job = printer.nextJob();
      await service.print(saleId, ['customer'], { printer: printer.address });
      expect(decodeEscPos(await job).copies).toHaveLength(1);
    } finally {
      await printer.close();
    }
  });

  it('leaves the transaction as it was', async () => {
    const [item] = await api.client.listTransactions({ id: saleId });
    expect(item).toMatchObject({ id: String(saleId), result: 'Approved', voided: 'false', amount: '27.50' });
  });
});

describe('a print queue of this computer', () => {
  let bin: string;
  beforeAll(() => {
    bin = mkdtempSync(join(tmpdir(), 'tender-lp-'));
    // Stands in for CUPS's lp: keeps its arguments and the job it was handed; a queue named
    // "missing" is refused as lp refuses an unknown destination.
    writeFileSync(
      join(bin, 'lp'),
      `#!/bin/sh\nif [ "$2" = "stuck" ]; then exec sleep 30; fi\nif [ "$2" = "missing" ]; then echo "lp: The printer or class does not exist." >&2; exit 1; fi\n` +
        `echo "$@" > "${bin}/args"\ncat > "${bin}/job"\necho "request id is $2-1 (1 file(s))"\n`,
    );
    chmodSync(join(bin, 'lp'), 0o755);
  });
  afterAll(() => rmSync(bin, { recursive: true, force: true }));

  it('is handed the ESC/POS bytes raw through lp', async () => {
    const queued = api.gateway.engine.receipts({
      printer: { lpCommand: join(bin, 'lp'), platform: 'linux' },
    });
    expect(await queued.print(saleId, ['customer'], { printer: 'counter-epson' })).toBe(
      'The print queue counter-epson took the receipt.',
    );
    expect(readFileSync(join(bin, 'args'), 'utf8').trim()).toBe('-d counter-epson -o raw');
    const paper = decodeEscPos(readFileSync(join(bin, 'job')));
    expect(paper.copies).toEqual([(await queued.render(saleId, 'customer')).lines]);
  });

  it('an unknown queue is reported with what lp said', async () => {
    const queued = api.gateway.engine.receipts({
      printer: { lpCommand: join(bin, 'lp'), platform: 'linux' },
    });
    await expect(queued.print(saleId, ['customer'], { printer: 'missing' })).rejects.toThrow(
      'The print queue missing refused the receipt: lp: The printer or class does not exist. Check the queue name in Settings and that it is enabled.',
    );
  });

  it('that hangs is given up within its time limit, in words', async () => {
    const queued = api.gateway.engine.receipts({
      printer: { lpCommand: join(bin, 'lp'), platform: 'linux', timeoutMs: 1_000 },
    });
    // Waited for, not timed: a print that never gave up would run into the test's limit.
    await expect(queued.print(saleId, ['customer'], { printer: 'stuck' })).rejects.toThrow(
      'The print queue stuck did not take the receipt within 1 s. Check CUPS, then print again.',
    );
  });

  it('without CUPS installed, says what to install', async () => {
    const queued = api.gateway.engine.receipts({
      printer: { lpCommand: join(bin, 'no-such-lp'), platform: 'linux' },
    });
    await expect(queued.print(saleId, ['customer'], { printer: 'counter-epson' })).rejects.toThrow(
      /was not found: install CUPS \(the cups-client package\)/,
    );
  });
});

describe('email', () => {
  const received: { mail: ParsedMail; from: string; to: string[] }[] = [];
  let smtp: SMTPServer;
  let port: number;

  beforeAll(async () => {
    smtp = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      onAuth(auth, _session, callback) {
        if (auth.username === 'till' && auth.password === 'correct horse') callback(null, { user: 'till' });
        else callback(new Error('Invalid user name or password'));
      },
      onRcptTo(address, _session, callback) {
        if (address.address.endsWith('@refused.test')) callback(new Error('No such mailbox'));
        else callback();
      },
      onData(stream, session, callback) {
        simpleParser(stream).then(
          (mail) => {
            received.push({
              mail,
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            });
            callback();
          },
          (error: Error) => callback(error),
        );
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    port = (smtp.server.address() as { port: number }).port;
    const { settings } = api.gateway.engine;
    await settings.setFromText('smtp_host', '127.0.0.1');
    await settings.setFromText('smtp_port', String(port));
    await settings.setFromText('smtp_security', 'none');
    await settings.setFromText('smtp_user', 'till');
    await settings.setFromText('smtp_password', 'correct horse');
    await settings.setFromText('smtp_from', 'receipts@bluedoor.test');
  });
  afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

  it('goes to the address the sale was sent with, and reads as the customer copy', async () => {
    const said = await service.email(saleId);
    expect(said).toBe('Receipt emailed to ada@example.test.');
    const last = received.at(-1);
    expect(last?.to).toEqual(['ada@example.test']);
    expect(last?.from).toBe('receipts@bluedoor.test');
    expect(last?.mail.subject).toBe(`Your receipt from Blue Door Bistro: SALE #${saleId}`);
    const { lines } = await service.render(saleId, 'customer');
    expect(last?.mail.text?.trimEnd()).toBe(lines.join('\n').trimEnd());
    expect(last?.mail.html).toContain('Visa **** 1111');
    expect(last?.mail.html).toContain('CUSTOMER COPY');
    expectNoCardNumber(`${last?.mail.text ?? ''}${String(last?.mail.html)}`);
  });

  it('goes to an address typed at the counter', async () => {
    await service.email(tabId, 'guest@example.test');
    const last = received.at(-1);
    expect(last?.to).toEqual(['guest@example.test']);
    expect(last?.mail.text).toContain('Mastercard **** 5454');
  });

  it('refuses what is not an email address before reaching the server', async () => {
    const before = received.length;
    await expect(service.email(saleId, 'not an address')).rejects.toThrow(
      'That is not an email address. Check it and send again.',
    );
    expect(received).toHaveLength(before);
  });

  it('a mailbox the server refuses is reported', async () => {
    const error = await service.email(saleId, 'nobody@refused.test').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MailError);
    expect((error as Error).message).toMatch(/^The mail server 127\.0\.0\.1:\d+ refused the email/);
  });

  it('a wrong password is reported without showing it', async () => {
    const { settings } = api.gateway.engine;
    await settings.setFromText('smtp_password', 'wrong');
    try {
      const error = await service.email(saleId).catch((e: unknown) => e);
      expect((error as Error).message).toBe(
        `The mail server 127.0.0.1:${port} refused the user name or password. Check them in Settings → Receipts & printer.`,
      );
      expect(settings.display('smtp_password')).toBe('set (hidden)');
    } finally {
      await settings.setFromText('smtp_password', 'correct horse');
    }
  });

  it('a mail server that is not there is reported, in words', async () => {
    const { settings } = api.gateway.engine;
    await settings.setFromText('smtp_port', String(await refusedPort()));
    try {
      await expect(service.email(saleId)).rejects.toThrow(/refused the connection/);
    } finally {
      await settings.setFromText('smtp_port', String(port));
    }
  });
});
