/**
 * The customer's screen as the host keeps it, driven as the two screens drive it: the cashier's
 * requests move it along a sale, the customer's answer the step on screen. Real engine, real ledger,
 * a real TCP printer and a real SMTP server.
 */
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CustomerView } from '../../shared/ipc/customer-contract';
import { dispatchInvoke } from '../../electron/bridge/dispatch';
import { THANKS_MS, UNATTENDED_STEP_MS } from '../../electron/bridge/customer-display';
import type { Terminal } from '../../electron/bridge/terminal';
import { startTerminal } from '../support/terminal';
import { decodeEscPos } from '../support/escpos-decoder';
import { startFakePrinter, type FakePrinter } from '../support/fake-printer';
import { startTestGateway, VISA, type TestGateway } from '../support/gateway';
import { manualTimers, type ManualTimers } from '../support/manual-timers';
import { sampleSignature } from '../support/signatures';

let t: TestGateway;
let terminal: Terminal;
let printer: FakePrinter;
let smtp: SMTPServer;
let detachScreen: (() => void) | undefined;
/** The customer's screen's clock: its time limits come only when a test moves it on. */
let clock: ManualTimers;
const mails: ParsedMail[] = [];
const PIN = '2580';
/** The mail server answers each mail once this settles: kept waiting, it is a slow mail server. */
let mailAnswer: Promise<void> = Promise.resolve();
/** Mails the server has received and not yet answered. */
let mailsWaiting = 0;

beforeAll(async () => {
  t = await startTestGateway({ tips: true });
  await t.gateway.engine.staff.create({ name: 'Olga', role: 'manager', pin: PIN }, 'test');
  printer = await startFakePrinter();
  smtp = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    onData(stream, _session, callback) {
      simpleParser(stream).then(async (mail) => {
        mailsWaiting += 1;
        try {
          await mailAnswer;
        } catch (error) {
          callback(error as Error);
          return;
        } finally {
          mailsWaiting -= 1;
        }
        mails.push(mail);
        callback();
      }, callback);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { settings } = t.gateway.engine;
  for (const [name, value] of [
    ['counter_tips', 'true'],
    ['merchant_name', 'Blue Door Bistro'],
    ['receipt_printer', printer.address],
    ['smtp_host', '127.0.0.1'],
    ['smtp_port', String((smtp.server.address() as { port: number }).port)],
    ['smtp_security', 'none'],
    ['smtp_from', 'receipts@bluedoor.test'],
  ] as const) {
    await settings.setFromText(name, value);
  }
});
beforeEach(async () => {
  clock = manualTimers();
  terminal = await startTerminal(t, { customerTimers: clock });
  await cashier('staff:sign-in', { pin: PIN });
  detachScreen = terminal.attachCustomerScreen();
});
afterEach(async () => {
  detachScreen?.();
  await terminal.stop();
  await t.gateway.engine.settings.setFromText('signature_above', 'none');
  await t.gateway.engine.settings.setFromText('receipt_merchant_copy', 'never');
});
afterAll(async () => {
  await t.close();
  await printer.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

async function answer(handlers: object, channel: string, input?: unknown): Promise<CustomerView> {
  const result = await dispatchInvoke(handlers, channel, input);
  if (!result.ok) throw Object.assign(new Error(result.error.message), { code: result.error.code });
  return result.value as CustomerView;
}
const cashier = (channel: string, input?: unknown) => answer(terminal.handlers, channel, input);
const customer = (channel: string, input?: unknown) => answer(terminal.customerHandlers, channel, input);
/** The cashier's New sale: the sale on the customer's screen goes. */
const finish = async () =>
  cashier('customer:finish', { saleSequence: (await customer('customer:view')).saleSequence ?? 0 });

/** Resolves with the first view the host announces that passes the test. */
function announced(test: (view: CustomerView) => boolean): Promise<CustomerView> {
  return new Promise((resolve) => {
    const off = terminal.events.subscribe((event, payload) => {
      if (event !== 'customer:changed' || !test(payload as CustomerView)) return;
      off();
      resolve(payload as CustomerView);
    });
  });
}

async function approvedSale(amount: string): Promise<number> {
  return Number((await t.client.createTransaction({ type: 'SALE', amount, ...VISA })).id);
}

describe('the tip', () => {
  it('offers three percentages with what each comes to', async () => {
    const view = await cashier('customer:start', { amountCents: 4000, askTip: true });
    expect(view.step).toEqual({
      step: 'tip',
      amountCents: 4000,
      suggestions: [
        { kind: 'percent', percent: 15, cents: 600 },
        { kind: 'percent', percent: 18, cents: 720 },
        { kind: 'percent', percent: 20, cents: 800 },
      ],
      warnPercent: 30,
    });
    expect(view.merchantName).toBe('Blue Door Bistro');
  });

  it('below the smart tip amount, offers fixed dollars instead', async () => {
    const view = await cashier('customer:start', { amountCents: 650, askTip: true });
    expect(view.step).toMatchObject({
      step: 'tip',
      suggestions: [
        { kind: 'fixed', cents: 100 },
        { kind: 'fixed', cents: 200 },
        { kind: 'fixed', cents: 300 },
      ],
    });
  });

  it('goes straight to the card when tips are off at the counter, or on captures', async () => {
    await t.gateway.engine.settings.setFromText('tips_enabled', 'false');
    try {
      expect((await cashier('customer:start', { amountCents: 4000, askTip: true })).step.step).toBe('swipe');
    } finally {
      await t.gateway.engine.settings.setFromText('tips_enabled', 'true');
    }
    expect((await cashier('customer:start', { amountCents: 4000, askTip: false })).step).toEqual({
      step: 'swipe',
      amountCents: 4000,
      tipCents: 0,
      totalCents: 4000,
    });
  });

  it('a tip chosen moves to the card with the total, and the cashier sees the choice', async () => {
    const start = await cashier('customer:start', { amountCents: 4000, askTip: true });
    const seen = announced((view) => view.step.step === 'swipe');
    const view = await customer('customer:choose-tip', {
      sequence: start.sequence,
      tipCents: 800,
      confirmed: false,
    });
    expect(view.step).toEqual({ step: 'swipe', amountCents: 4000, tipCents: 800, totalCents: 4800 });
    expect(view.choices).toMatchObject({ tipCents: 800, tipLabel: '20%' });
    expect((await seen).choices.tipLabel).toBe('20%');
  });

  it('names its sale by the sequence it started at, through every step, and none once idle', async () => {
    const start = await cashier('customer:start', { amountCents: 4000, askTip: true });
    expect(start.saleSequence).toBe(start.sequence);
    const view = await customer('customer:choose-tip', {
      sequence: start.sequence,
      tipCents: 0,
      confirmed: false,
    });
    expect(view.sequence).toBeGreaterThan(start.sequence);
    expect(view.saleSequence).toBe(start.sequence);
    const next = await cashier('customer:start', { amountCents: 900, askTip: false });
    expect(next.saleSequence).toBe(next.sequence);
    expect((await finish()).saleSequence).toBeUndefined();
  });

  it('a tip above tip_warn_percent is refused until the customer confirms it', async () => {
    const start = await cashier('customer:start', { amountCents: 1500, askTip: true });
    await expect(
      customer('customer:choose-tip', { sequence: start.sequence, tipCents: 700, confirmed: false }),
    ).rejects.toMatchObject({ code: 'refused', message: expect.stringContaining('more than 30%') });
    expect((await customer('customer:view')).step.step).toBe('tip');
    const view = await customer('customer:choose-tip', {
      sequence: start.sequence,
      tipCents: 700,
      confirmed: true,
    });
    expect(view.choices).toMatchObject({ tipCents: 700, tipLabel: 'Custom' });
    expect(view.step).toMatchObject({ totalCents: 2200 });
  });

  it('a suggested amount is the merchant’s own and needs no confirming; the same share typed in does', async () => {
    const start = await cashier('customer:start', { amountCents: 650, askTip: true });
    // $3.00 on $6.50 is 46%, above tip_warn_percent, but it is one of the smart tip amounts.
    const view = await customer('customer:choose-tip', {
      sequence: start.sequence,
      tipCents: 300,
      confirmed: false,
    });
    expect(view.choices).toMatchObject({ tipCents: 300, tipLabel: '$3.00' });
    const again = await cashier('customer:start', { amountCents: 650, askTip: true });
    await expect(
      customer('customer:choose-tip', { sequence: again.sequence, tipCents: 301, confirmed: false }),
    ).rejects.toMatchObject({ code: 'refused' });
  });

  it('an answer to a step no longer on screen changes nothing', async () => {
    const first = await cashier('customer:start', { amountCents: 4000, askTip: true });
    await cashier('customer:start', { amountCents: 3000, askTip: true });
    await expect(
      customer('customer:choose-tip', { sequence: first.sequence, tipCents: 600, confirmed: false }),
    ).rejects.toMatchObject({ code: 'refused' });
    expect((await customer('customer:view')).step).toMatchObject({ step: 'tip', amountCents: 3000 });
  });

  it('the cashier’s Skip goes on without a tip; Skip of anything else is refused', async () => {
    const start = await cashier('customer:start', { amountCents: 4000, askTip: true });
    const view = await cashier('customer:skip', { sequence: start.sequence });
    expect(view.step).toMatchObject({ step: 'swipe', tipCents: 0, totalCents: 4000 });
    expect(view.choices).toMatchObject({ tipCents: 0, tipLabel: 'Skipped' });
    await expect(cashier('customer:skip', { sequence: view.sequence })).rejects.toMatchObject({
      code: 'refused',
    });
  });
});

describe('the card', () => {
  it('Cancel before the card is read goes back to idle; once it is being charged, Cancel is refused', async () => {
    const first = await cashier('customer:start', { amountCents: 900, askTip: false });
    expect((await cashier('customer:cancel', { saleSequence: first.saleSequence })).step).toEqual({
      step: 'idle',
    });
    const { saleSequence } = await cashier('customer:start', { amountCents: 900, askTip: false });
    expect((await cashier('customer:charging', { saleSequence })).step).toEqual({
      step: 'processing',
      totalCents: 900,
    });
    await expect(cashier('customer:cancel', { saleSequence })).rejects.toMatchObject({ code: 'refused' });
  });

  it('a sale called off is never charged: the charge it would have begun is refused', async () => {
    // The customer chooses a tip with a card already swiped, while the cashier presses Cancel: the
    // host takes whichever comes first, and never both.
    const { saleSequence, sequence } = await cashier('customer:start', { amountCents: 4000, askTip: true });
    await customer('customer:choose-tip', { sequence, tipCents: 800, confirmed: false });
    expect((await cashier('customer:cancel', { saleSequence })).step).toEqual({ step: 'idle' });
    await expect(cashier('customer:charging', { saleSequence })).rejects.toMatchObject({
      code: 'refused',
      message: 'That sale is no longer on the customer’s screen.',
    });
    // The other way round: once told of the charge, Cancel is refused.
    const next = await cashier('customer:start', { amountCents: 4000, askTip: true });
    await customer('customer:choose-tip', { sequence: next.sequence, tipCents: 800, confirmed: false });
    await cashier('customer:charging', { saleSequence: next.saleSequence });
    await expect(cashier('customer:cancel', { saleSequence: next.saleSequence })).rejects.toMatchObject({
      code: 'refused',
    });
    expect((await customer('customer:view')).step).toEqual({ step: 'processing', totalCents: 4800 });
  });

  it('a decline is said in customer words, and another card goes back to the swipe', async () => {
    const { saleSequence } = await cashier('customer:start', { amountCents: 900, askTip: false });
    await cashier('customer:charging', { saleSequence });
    expect((await cashier('customer:answered', { saleSequence, outcome: 'declined' })).step).toEqual({
      step: 'declined',
      totalCents: 900,
    });
    expect((await cashier('customer:try-again', { saleSequence })).step.step).toBe('swipe');
    await cashier('customer:charging', { saleSequence });
    expect((await cashier('customer:answered', { saleSequence, outcome: 'other' })).step.step).toBe(
      'see-cashier',
    );
  });
});

describe('two cashier pages of one counter', () => {
  it('an answer for a sale no longer on the customer’s screen is refused, and the sale on it is untouched', async () => {
    const idA = await approvedSale('10.00');
    const a = await cashier('customer:start', { amountCents: 1000, askTip: false });
    const b = await cashier('customer:start', { amountCents: 2000, askTip: false });
    for (const [channel, input] of [
      ['customer:charging', { saleSequence: a.saleSequence }],
      [
        'customer:answered',
        { saleSequence: a.saleSequence, outcome: 'approved', transactionId: idA, totalCents: 1000 },
      ],
      ['customer:answered', { saleSequence: a.saleSequence, outcome: 'declined' }],
      ['customer:try-again', { saleSequence: a.saleSequence }],
    ] as const) {
      await expect(cashier(channel, input), channel).rejects.toMatchObject({ code: 'refused' });
    }
    // Page A's Cancel has nothing to call off: page B's sale stays.
    await cashier('customer:cancel', { saleSequence: a.saleSequence });
    const shown = await customer('customer:view');
    expect(shown.saleSequence).toBe(b.saleSequence);
    expect(shown.step).toEqual({ step: 'swipe', amountCents: 2000, tipCents: 0, totalCents: 2000 });
    expect(shown.choices.transactionId).toBeUndefined();
  });

  it('a request that names no sale is refused', async () => {
    await cashier('customer:start', { amountCents: 1000, askTip: false });
    for (const channel of ['customer:charging', 'customer:cancel', 'customer:try-again'] as const) {
      await expect(cashier(channel), channel).rejects.toMatchObject({ code: 'invalid-input' });
    }
    await expect(cashier('customer:answered', { outcome: 'declined' })).rejects.toMatchObject({
      code: 'invalid-input',
    });
  });
});

/** A sale of `amountCents` approved on the customer's screen; the view it is on after the answer. */
async function approved(amountCents: number): Promise<{ id: number; view: CustomerView }> {
  const id = await approvedSale((amountCents / 100).toFixed(2));
  const { saleSequence } = await cashier('customer:start', { amountCents, askTip: false });
  await cashier('customer:charging', { saleSequence });
  const view = await cashier('customer:answered', {
    saleSequence,
    outcome: 'approved',
    transactionId: id,
    totalCents: amountCents,
  });
  return { id, view };
}

/** The printed copies of transaction `id` that say `copy` ("MERCHANT COPY"), among every job so far. */
function printedCopies(id: number, copy: string): number {
  return printer.jobs.filter((job) => {
    const text = decodeEscPos(job).copies.flat().join('\n');
    return text.includes(copy) && new RegExp(`#${id}\\b`).test(text);
  }).length;
}

/**
 * Waits until the printer has taken everything sent before now: a later sale's customer copy,
 * printed on the customer's choice, comes after it.
 */
async function printerDrained(): Promise<void> {
  await t.gateway.engine.settings.setFromText('receipt_merchant_copy', 'never');
  await t.gateway.engine.settings.setFromText('signature_above', 'none');
  const { view } = await approved(100);
  const job = printer.nextJob();
  await customer('customer:choose-receipt', { sequence: view.sequence, choice: 'print' });
  await job;
}

describe('the signature and the receipt', () => {
  it('from signature_above, asks for a signature, keeps it, and prints it on the merchant copy', async () => {
    await t.gateway.engine.settings.setFromText('signature_above', '50.00');
    await t.gateway.engine.settings.setFromText('receipt_merchant_copy', 'always');
    const { id, view } = await approved(5000);
    expect(view.step).toEqual({ step: 'signature', totalCents: 5000 });
    await expect(
      customer('customer:sign', { sequence: view.sequence, strokes: [[10, 10, 12, 12]] }),
    ).rejects.toMatchObject({ code: 'invalid-input' });
    const job = printer.nextJob();
    const noticed = announced((shown) =>
      shown.choices.receiptNotices.some((notice) => notice.message === 'Merchant copy printed.'),
    );
    const signed = await customer('customer:sign', { sequence: view.sequence, strokes: sampleSignature() });
    expect(signed.choices.signed).toBe(true);
    expect(signed.step).toEqual({ step: 'receipt', totalCents: 5000, print: true, email: true });
    expect(await t.gateway.engine.signatures.strokes(id)).toEqual(sampleSignature());
    const paper = decodeEscPos(await job);
    expect(paper.copies[0]?.map((line) => line.trim())).toEqual(
      expect.arrayContaining(['MERCHANT COPY', '[picture 384x128]', 'Signed on screen']),
    );
    await noticed;
  });

  it('below signature_above, or after the cashier skips it, goes to the receipt unsigned', async () => {
    await t.gateway.engine.settings.setFromText('signature_above', '50.00');
    expect((await approved(4999)).view.step.step).toBe('receipt');
    const { id, view } = await approved(6000);
    const skipped = await cashier('customer:skip', { sequence: view.sequence });
    expect(skipped.choices.signed).toBe(false);
    expect(skipped.step.step).toBe('receipt');
    expect(await t.gateway.engine.signatures.strokes(id)).toBeUndefined();
  });

  it('without a customer’s screen connected, no signature is asked for', async () => {
    await t.gateway.engine.settings.setFromText('signature_above', '10.00');
    detachScreen?.();
    detachScreen = undefined;
    expect((await approved(5000)).view.step.step).toBe('receipt');
  });

  it('Print prints the customer copy; thank you, then idle again', async () => {
    const { view } = await approved(1200);
    const job = printer.nextJob();
    const idle = announced((shown) => shown.step.step === 'idle');
    const thanks = await customer('customer:choose-receipt', { sequence: view.sequence, choice: 'print' });
    expect(thanks.step).toEqual({ step: 'thanks' });
    expect(thanks.choices.receipt).toBe('print');
    expect(decodeEscPos(await job).copies[0]?.map((line) => line.trim())).toContain('CUSTOMER COPY');
    clock.advance(THANKS_MS - 1);
    expect((await customer('customer:view')).step.step).toBe('thanks');
    clock.advance(1);
    await idle;
  });

  it('Email checks the address, sends the receipt and keeps the address on the transaction', async () => {
    const { id, view } = await approved(1300);
    await expect(
      customer('customer:choose-receipt', { sequence: view.sequence, choice: 'email', email: 'ann@' }),
    ).rejects.toMatchObject({ code: 'invalid-input' });
    const sent = await customer('customer:choose-receipt', {
      sequence: view.sequence,
      choice: 'email',
      email: 'ann@example.test',
    });
    expect(sent.step.step).toBe('thanks');
    expect(sent.choices).toMatchObject({ receipt: 'email', receiptEmail: 'ann@example.test' });
    expect(sent.choices.receiptNotices.at(-1)).toEqual({
      ok: true,
      message: 'Receipt emailed to ann@example.test.',
    });
    expect(mails.at(-1)?.text).toContain(`#${id}`);
    expect(await t.gateway.engine.customerRecords.receiptEmail(id)).toBe('ann@example.test');
    // The transaction's details read it back, with whether the customer signed.
    expect(await dispatchInvoke(terminal.handlers, 'receipts:customer-kept', { id })).toEqual({
      ok: true,
      value: { signed: false, address: 'ann@example.test' },
    });
  });

  it('a receipt emailed once the next sale began is not told on it; one that failed is, naming its transaction', async () => {
    for (const fails of [false, true]) {
      let answerMail!: (error?: Error) => void;
      mailAnswer = new Promise((resolve, reject) => {
        answerMail = (error) => (error ? reject(error) : resolve());
      });
      try {
        const { id, view } = await approved(1350);
        const sending = customer('customer:choose-receipt', {
          sequence: view.sequence,
          choice: 'email',
          email: 'first@customer.test',
        });
        await expect.poll(() => mailsWaiting).toBe(1);
        await finish();
        const next = await cashier('customer:start', { amountCents: 1200, askTip: true });
        expect(next.choices.receiptNotices).toEqual([]);
        answerMail(fails ? new Error('mailbox unavailable') : undefined);
        await sending;
        const notices = (await customer('customer:view')).choices.receiptNotices;
        if (fails) {
          expect(notices).toHaveLength(1);
          expect(notices[0]).toMatchObject({ ok: false });
          expect(notices[0]?.message).toMatch(new RegExp(`^Transaction #${id}: The receipt was not emailed`));
        } else {
          expect(notices).toEqual([]);
        }
        await finish();
      } finally {
        answerMail();
        mailAnswer = Promise.resolve();
      }
    }
  });

  it('No receipt prints and sends nothing', async () => {
    const { view } = await approved(1400);
    const jobs = printer.jobs.length;
    const mailed = mails.length;
    const thanks = await customer('customer:choose-receipt', { sequence: view.sequence, choice: 'none' });
    expect(thanks.choices.receipt).toBe('none');
    await customer('customer:view');
    expect([printer.jobs.length, mails.length]).toEqual([jobs, mailed]);
  });

  it('the customer’s screen cannot sign or choose for a step it is not on', async () => {
    const { view } = await approved(1500);
    await expect(
      customer('customer:sign', { sequence: view.sequence, strokes: sampleSignature() }),
    ).rejects.toMatchObject({ code: 'refused' });
    await expect(
      customer('customer:choose-tip', { sequence: view.sequence, tipCents: 100, confirmed: true }),
    ).rejects.toMatchObject({ code: 'refused' });
  });
});

describe('the cashier’s page', () => {
  it('follows the customer’s screen but never answers for the customer', async () => {
    await t.gateway.engine.settings.setFromText('signature_above', '50.00');
    const { id, view } = await approved(6000);
    expect(view.step).toEqual({ step: 'signature', totalCents: 6000 });
    expect((await cashier('customer:view')).step).toEqual(view.step);
    const asked: [string, unknown][] = [
      ['customer:sign', { sequence: view.sequence, strokes: sampleSignature() }],
      ['customer:choose-receipt', { sequence: view.sequence, choice: 'email', email: 'who@example.com' }],
      ['customer:choose-tip', { sequence: view.sequence, tipCents: 100, confirmed: true }],
      ['customer:still-here', { sequence: view.sequence }],
    ];
    for (const [channel, input] of asked) {
      await expect(cashier(channel, input), channel).rejects.toMatchObject({
        code: 'forbidden',
        message: "Only the customer's screen answers this.",
      });
    }
    expect(await t.gateway.engine.signatures.strokes(id)).toBeUndefined();
    // The customer's own screen still signs.
    const signed = await customer('customer:sign', { sequence: view.sequence, strokes: sampleSignature() });
    expect(signed.choices.signed).toBe(true);
    await customer('customer:choose-receipt', { sequence: signed.sequence, choice: 'none' });
  });

  it('cannot have the customer sign for one amount and keep the signature on another charge', async () => {
    await t.gateway.engine.settings.setFromText('signature_above', '0.01');
    // A charge made elsewhere, not the sale on the customer's screen.
    const other = await approvedSale('321.00');
    const { saleSequence } = await cashier('customer:start', { amountCents: 100, askTip: false });
    await cashier('customer:charging', { saleSequence });
    for (const answer of [
      { transactionId: other, totalCents: 100 },
      { transactionId: 999_999, totalCents: 100 },
    ]) {
      await expect(
        cashier('customer:answered', { saleSequence, outcome: 'approved', ...answer }),
      ).rejects.toMatchObject({ code: 'refused' });
    }
    // Still waiting for the answer; no signature is asked for and none is kept.
    expect((await customer('customer:view')).step.step).toBe('processing');
    expect(await t.gateway.engine.signatures.strokes(other)).toBeUndefined();
    // The real charge of the sale on screen is taken.
    const charged = await approvedSale('1.00');
    const view = await cashier('customer:answered', {
      saleSequence,
      outcome: 'approved',
      transactionId: charged,
      totalCents: 100,
    });
    expect(view.step).toEqual({ step: 'signature', totalCents: 100 });
    await cashier('customer:skip', { sequence: view.sequence });
    await finish();
  });
});

describe('New sale on one of the counter’s pages', () => {
  it('takes only its own sale off the customer’s screen, never one another page started since', async () => {
    const first = await cashier('customer:start', { amountCents: 1200, askTip: false });
    const second = await cashier('customer:start', { amountCents: 3400, askTip: false });
    // The first page goes on to its next sale: the second page's sale stays where it is.
    const after = await cashier('customer:finish', { saleSequence: first.saleSequence });
    expect(after.saleSequence).toBe(second.saleSequence);
    expect(after.step).toMatchObject({ step: 'swipe' });
    expect((await customer('customer:view')).saleSequence).toBe(second.saleSequence);
    expect((await cashier('customer:finish', { saleSequence: second.saleSequence })).step.step).toBe('idle');
    await expect(cashier('customer:finish', {})).rejects.toMatchObject({ code: 'invalid-input' });
  });
});

describe('a sale that leaves the customer’s screen before the customer has finished', () => {
  for (const leaving of ['customer:finish', 'customer:start'] as const) {
    it(`while signing (${leaving}): what prints by itself still prints, once, as Skip would`, async () => {
      await t.gateway.engine.settings.setFromText('signature_above', '50.00');
      await t.gateway.engine.settings.setFromText('receipt_merchant_copy', 'always');
      const { id, view } = await approved(7500);
      expect(view.step.step).toBe('signature');
      const job = printer.nextJob();
      // The customer walks off without signing; the cashier goes on to the next sale.
      const after = await cashier(
        leaving,
        leaving === 'customer:start'
          ? { amountCents: 900, askTip: false }
          : { saleSequence: view.saleSequence },
      );
      expect(after.step.step).toBe(leaving === 'customer:start' ? 'swipe' : 'idle');
      const paper = decodeEscPos(await job)
        .copies.flat()
        .join('\n');
      expect(paper).toContain('MERCHANT COPY');
      expect(paper).toContain(`#${id}`);
      expect(await t.gateway.engine.signatures.strokes(id)).toBeUndefined();
      await finish();
      await printerDrained();
      expect(printedCopies(id, 'MERCHANT COPY')).toBe(1);
    });
  }

  it('while choosing a receipt: what printed by itself at the answer is not printed again', async () => {
    await t.gateway.engine.settings.setFromText('receipt_merchant_copy', 'always');
    const job = printer.nextJob();
    const { id, view } = await approved(2100);
    expect(view.step.step).toBe('receipt');
    expect(
      decodeEscPos(await job)
        .copies.flat()
        .join('\n'),
    ).toContain('MERCHANT COPY');
    expect((await finish()).step.step).toBe('idle');
    await printerDrained();
    expect(printedCopies(id, 'MERCHANT COPY')).toBe(1);
  });

  it('after the cashier skipped the signature, New sale prints nothing more', async () => {
    await t.gateway.engine.settings.setFromText('signature_above', '50.00');
    await t.gateway.engine.settings.setFromText('receipt_merchant_copy', 'always');
    const { id, view } = await approved(7700);
    const job = printer.nextJob();
    await cashier('customer:skip', { sequence: view.sequence });
    await job;
    await finish();
    await printerDrained();
    expect(printedCopies(id, 'MERCHANT COPY')).toBe(1);
  });
});

describe('one receipt choice for one receipt step', () => {
  /** Holds the mail server's answer until `answerMail` is called. */
  function slowMail(): () => void {
    let answerMail!: () => void;
    mailAnswer = new Promise((resolve) => {
      answerMail = resolve;
    });
    return () => {
      answerMail();
      mailAnswer = Promise.resolve();
    };
  }

  it('while an email is sent, a second choice for the same step is refused and the first address kept', async () => {
    const answerMail = slowMail();
    try {
      const { id, view } = await approved(1350);
      const mailedBefore = mails.length;
      const first = customer('customer:choose-receipt', {
        sequence: view.sequence,
        choice: 'email',
        email: 'first@customer.test',
      });
      await expect.poll(() => mailsWaiting).toBe(1);
      for (const second of [
        { choice: 'email', email: 'second@other.test' },
        { choice: 'print' },
        { choice: 'none' },
      ]) {
        await expect(
          customer('customer:choose-receipt', { sequence: view.sequence, ...second }),
        ).rejects.toMatchObject({ code: 'refused', message: expect.stringContaining('on its way already') });
      }
      answerMail();
      const sent = await first;
      expect(sent.step.step).toBe('thanks');
      expect(sent.choices).toMatchObject({ receipt: 'email', receiptEmail: 'first@customer.test' });
      expect(await t.gateway.engine.customerRecords.receiptEmail(id)).toBe('first@customer.test');
      expect(mails.slice(mailedBefore).map((mail) => mail.to)).toHaveLength(1);
      expect(JSON.stringify(mails.at(-1)?.to)).toContain('first@customer.test');
    } finally {
      answerMail();
    }
  });

  it('an address not accepted leaves the choice open', async () => {
    const { view } = await approved(1360);
    await expect(
      customer('customer:choose-receipt', { sequence: view.sequence, choice: 'email', email: 'ann@' }),
    ).rejects.toMatchObject({ code: 'invalid-input' });
    const none = await customer('customer:choose-receipt', { sequence: view.sequence, choice: 'none' });
    expect(none.choices.receipt).toBe('none');
  });

  it('an address kept for one sale never shows in the next sale’s view', async () => {
    const records = t.gateway.engine.customerRecords;
    const original = records.keepReceiptEmail.bind(records);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let writing = 0;
    (records as { keepReceiptEmail: typeof original }).keepReceiptEmail = async (...args) => {
      writing += 1;
      await gate;
      return original(...args);
    };
    try {
      const { id, view } = await approved(1370);
      const sending = customer('customer:choose-receipt', {
        sequence: view.sequence,
        choice: 'email',
        email: 'previous@customer.test',
      });
      await expect.poll(() => writing).toBe(1);
      // The cashier goes on to the next customer while the address is still being written.
      await finish();
      const next = await cashier('customer:start', { amountCents: 900, askTip: false });
      release();
      await sending;
      const now = await customer('customer:view');
      expect(now.saleSequence).toBe(next.saleSequence);
      expect(now.choices.receipt).toBeUndefined();
      expect(now.choices.receiptEmail).toBeUndefined();
      // The address is still kept with the sale it was given for.
      expect(await records.receiptEmail(id)).toBe('previous@customer.test');
    } finally {
      release();
      (records as { keepReceiptEmail: typeof original }).keepReceiptEmail = original;
    }
  });
});

describe('a finished sale left on the customer’s screen of an unattended or locked counter', () => {
  it(`the signature step left untouched for ${UNATTENDED_STEP_MS / 60_000} minutes ends the sale, printing what prints by itself`, async () => {
    await t.gateway.engine.settings.setFromText('signature_above', '10.00');
    await t.gateway.engine.settings.setFromText('receipt_merchant_copy', 'always');
    const { id, view } = await approved(2400);
    expect(view.step.step).toBe('signature');
    clock.advance(UNATTENDED_STEP_MS - 1);
    expect((await customer('customer:view')).step.step).toBe('signature');
    const job = printer.nextJob();
    clock.advance(1);
    expect((await customer('customer:view')).step).toEqual({ step: 'idle' });
    expect(
      decodeEscPos(await job)
        .copies.flat()
        .join('\n'),
    ).toContain('MERCHANT COPY');
    await expect(
      customer('customer:sign', { sequence: view.sequence, strokes: sampleSignature() }),
    ).rejects.toMatchObject({ code: 'refused' });
    expect(await t.gateway.engine.signatures.strokes(id)).toBeUndefined();
    await printerDrained();
    expect(printedCopies(id, 'MERCHANT COPY')).toBe(1);
  });

  it('a customer still typing an address or signing keeps the step: its time starts again', async () => {
    const { view } = await approved(2320);
    expect(view.step.step).toBe('receipt');
    for (let minute = 0; minute < 5; minute++) {
      clock.advance(UNATTENDED_STEP_MS - 1_000);
      expect((await customer('customer:still-here', { sequence: view.sequence })).step.step).toBe('receipt');
    }
    // The same view goes on: a choice made now is still this step's.
    expect((await customer('customer:view')).sequence).toBe(view.sequence);
    // A step that is no longer on screen is kept by nothing.
    clock.advance(UNATTENDED_STEP_MS);
    expect((await customer('customer:view')).step).toEqual({ step: 'idle' });
    expect((await customer('customer:still-here', { sequence: view.sequence })).step).toEqual({
      step: 'idle',
    });
  });

  it('the receipt step left untouched ends the sale: nobody can email its receipt after', async () => {
    const { id, view } = await approved(2300);
    expect(view.step.step).toBe('receipt');
    clock.advance(UNATTENDED_STEP_MS);
    const shown = await customer('customer:view');
    expect(shown.step).toEqual({ step: 'idle' });
    expect(shown.choices).toEqual({ receiptNotices: [] });
    await expect(
      customer('customer:choose-receipt', {
        sequence: view.sequence,
        choice: 'email',
        email: 'stranger@elsewhere.test',
      }),
    ).rejects.toMatchObject({ code: 'refused' });
    expect(await t.gateway.engine.customerRecords.receiptEmail(id)).toBeUndefined();
  });

  it('a receipt step shown again after a choice failed starts its time again', async () => {
    const { view } = await approved(2350);
    clock.advance(UNATTENDED_STEP_MS - 1_000);
    let answerMail!: (error?: Error) => void;
    mailAnswer = new Promise((resolve, reject) => {
      answerMail = (error) => (error ? reject(error) : resolve());
    });
    try {
      const sending = customer('customer:choose-receipt', {
        sequence: view.sequence,
        choice: 'email',
        email: 'ann@example.test',
      });
      await expect.poll(() => mailsWaiting).toBe(1);
      answerMail(new Error('mailbox unavailable'));
      const again = await sending;
      expect(again.step).toMatchObject({ step: 'receipt', problem: expect.any(String) });
      clock.advance(UNATTENDED_STEP_MS - 1);
      expect((await customer('customer:view')).step.step).toBe('receipt');
      clock.advance(1);
      expect((await customer('customer:view')).step.step).toBe('idle');
    } finally {
      answerMail();
      mailAnswer = Promise.resolve();
    }
  });

  it('locking the counter ends a sale on its signature or receipt step, printing what prints by itself', async () => {
    await t.gateway.engine.settings.setFromText('signature_above', '10.00');
    await t.gateway.engine.settings.setFromText('receipt_merchant_copy', 'always');
    const { id, view } = await approved(2400);
    expect(view.step.step).toBe('signature');
    const job = printer.nextJob();
    await cashier('staff:lock');
    expect((await customer('customer:view')).step).toEqual({ step: 'idle' });
    expect(
      decodeEscPos(await job)
        .copies.flat()
        .join('\n'),
    ).toContain(`#${id}`);
    await expect(
      customer('customer:sign', { sequence: view.sequence, strokes: sampleSignature() }),
    ).rejects.toMatchObject({ code: 'refused' });
    expect(await t.gateway.engine.signatures.strokes(id)).toBeUndefined();

    await cashier('staff:sign-in', { pin: PIN });
    await t.gateway.engine.settings.setFromText('signature_above', 'none');
    const receipt = await approved(2500);
    expect(receipt.view.step.step).toBe('receipt');
    await cashier('staff:lock');
    expect((await customer('customer:view')).step).toEqual({ step: 'idle' });
    await expect(
      customer('customer:choose-receipt', {
        sequence: receipt.view.sequence,
        choice: 'email',
        email: 'stranger@elsewhere.test',
      }),
    ).rejects.toMatchObject({ code: 'refused' });
    expect(await t.gateway.engine.customerRecords.receiptEmail(receipt.id)).toBeUndefined();
    await cashier('staff:sign-in', { pin: PIN });
  });

  it('locking the counter leaves a sale still waiting for its card with the cashier, behind the welcome, and it never times out', async () => {
    const start = await cashier('customer:start', { amountCents: 900, askTip: true });
    await cashier('staff:lock');
    clock.advance(UNATTENDED_STEP_MS * 10);
    const locked = await customer('customer:view');
    expect(locked.step).toEqual({ step: 'idle' });
    expect(locked.saleSequence).toBeUndefined();
    await cashier('staff:sign-in', { pin: PIN });
    const back = await customer('customer:view');
    expect(back.step).toMatchObject({ step: 'tip', amountCents: 900 });
    expect(back.saleSequence).toBe(start.saleSequence);
  });

  it('locking the counter while the card is being charged takes the sale off the customer’s screen for good', async () => {
    const start = await cashier('customer:start', { amountCents: 1500, askTip: false });
    const saleSequence = start.saleSequence ?? 0;
    expect((await cashier('customer:charging', { saleSequence })).step.step).toBe('processing');
    await cashier('staff:lock');
    expect((await customer('customer:view')).step).toEqual({ step: 'idle' });
    // The charge is answered to the cashier's page, behind the lock; at the sign-in the page finishes
    // the sale on its own screen, and the customer's screen is not left saying it is processing.
    await cashier('staff:sign-in', { pin: PIN });
    const after = await customer('customer:view');
    expect(after.step).toEqual({ step: 'idle' });
    expect(after.saleSequence).toBeUndefined();
    await expect(
      cashier('customer:answered', { saleSequence, outcome: 'approved', transactionId: 1, totalCents: 1500 }),
    ).rejects.toMatchObject({ code: 'refused' });
  });
});
