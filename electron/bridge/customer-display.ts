/**
 * The customer's screen as the host keeps it: which step it shows, what the customer chose, and
 * whether a customer's screen is connected. The cashier's screens move it along the sale (the tip,
 * the card, the answer, the signature, the receipt); the customer's screen answers only the step it
 * shows, naming it by its sequence number, and reaches nothing else: the host keeps the signature,
 * prints and emails the receipt, so the customer's page never holds an API key or talks to the
 * engine. The state lives here, not in either page, so a customer's screen that reconnects (or a
 * reload) finds the sale where it was.
 */
import { TYPE_LABELS, type TransactionTypeLabel } from '../../shared/api/transaction-types';
import { displayMoney, MAX_AMOUNT_CENTS } from '../../shared/money';
import type { AppSettings, InvokeChannel } from '../../shared/ipc/contract';
import type {
  CustomerChoices,
  CustomerScreenChannel,
  CustomerStep,
  CustomerView,
} from '../../shared/ipc/customer-contract';
import { needsTipConfirm, tipSuggestions } from '../../shared/tips';
import type { Engine } from '../gateway/engine';
import { isEmailAddress, MailError, NOT_AN_ADDRESS } from '../gateway/receipts/mailer';
import { PrinterError } from '../gateway/receipts/printer';
import type { ReceiptCopy } from '../gateway/receipts/receipt';
import type { ReceiptService } from '../gateway/receipts/receipt-service';
import { SignatureRefusedError } from '../gateway/signatures';
import { BridgeError, type BridgeHandlers } from './dispatch';
import type { BridgeEventHub } from './events';

export type CustomerCashierChannel = Exclude<
  Extract<InvokeChannel, `customer:${string}`>,
  CustomerScreenChannel
>;

/** How long "Thank you" stays before the screen is idle again. */
export const THANKS_MS = 6_000;

/**
 * How long the signature or the receipt step waits untouched before the screen leaves the sale for
 * its welcome, as New sale would (what prints by itself still prints): a sale left on an unattended
 * counter must not stay open for the next person to sign for, or to email its receipt anywhere.
 * Long enough to sign and to type an address on the on-screen keyboard.
 */
export const UNATTENDED_STEP_MS = 120_000;

/**
 * Steps from the moment the card is charged: the lock takes these off the customer's screen. A
 * charge on its way when the counter locks is answered to the cashier's page, which finishes that
 * sale on its own screen once someone signs in.
 */
const CARD_TAKEN: ReadonlySet<CustomerStep['step']> = new Set([
  'processing',
  'approved',
  'signature',
  'receipt',
  'thanks',
]);

/** The clock the screen's own time limits run on; tests give their own. */
export interface CustomerTimers {
  set(callback: () => void, ms: number): unknown;
  clear(timer: unknown): void;
}

const NODE_TIMERS: CustomerTimers = {
  set: (callback, ms) => setTimeout(callback, ms).unref(),
  clear: (timer) => clearTimeout(timer as NodeJS.Timeout),
};

export interface CustomerDisplayOptions {
  engine: Engine;
  events: BridgeEventHub;
  /** The counter's settings as the screens see them: tips, the signature amount, the switch. */
  settings: () => AppSettings;
  receipts: ReceiptService;
  thanksMs?: number;
  /** How long the signature or the receipt step waits untouched; UNATTENDED_STEP_MS unless given. */
  unattendedMs?: number;
  timers?: CustomerTimers;
  /** In a browser: the address that pairs one more customer's page (a ticket of its own each time). */
  pairingAddress?: () => string;
  /** Whether nobody is signed in at the counter now (the idle lock applied). */
  counterLocked: () => boolean;
}

/** The sale on the customer's screen: what it comes to, once the tip is known. */
interface CustomerSale {
  amountCents: number;
  tipCents: number;
}

const COPY_WORDS: Record<ReceiptCopy, string> = {
  customer: 'Customer copy',
  merchant: 'Merchant copy',
  check: 'Check',
};

/** The transactions a customer pays by: what a signature and a receipt at the counter are for. */
const CHARGES: ReadonlySet<TransactionTypeLabel | null> = new Set([
  TYPE_LABELS.SALE,
  TYPE_LABELS.CAPTURE,
  TYPE_LABELS['FORCED SALE'],
]);

/** Steps before the card was read, from which the cashier may call the sale off. */
const CANCELLABLE: ReadonlySet<CustomerStep['step']> = new Set(['tip', 'swipe', 'declined', 'see-cashier']);

/**
 * Steps from which the card is charged. From `processing` on, Cancel is refused: the cashier's page
 * says `customer:charging`, and waits for its answer, before it sends the charge.
 */
const CHARGEABLE: ReadonlySet<CustomerStep['step']> = new Set([
  'tip',
  'swipe',
  'declined',
  'see-cashier',
  'processing',
]);

export class CustomerDisplay {
  readonly #options: CustomerDisplayOptions;
  #step: CustomerStep = { step: 'idle' };
  #choices: CustomerChoices = { receiptNotices: [] };
  #sale: CustomerSale | undefined;
  #sequence = 0;
  /** The sequence the sale on screen started at; none while idle. */
  #saleSequence: number | undefined;
  /** Counts the sales shown, one to the next: what a receipt's late outcome is told against. */
  #saleNumber = 0;
  /** What prints by itself after the sale on screen has been sent to the printer. */
  #printedAutomatic = false;
  /** The receipt step (by its sequence) whose choice is being carried out: the first choice wins. */
  #receiptChosenAt: number | undefined;
  #screens = 0;
  /** The time limit of the step on screen: Thank you's, or an unattended signature's or receipt's. */
  #timer: unknown;

  constructor(options: CustomerDisplayOptions) {
    this.#options = options;
  }

  /** What both screens show; while the counter is locked, the welcome and nothing of a sale. */
  view(): CustomerView {
    const settings = this.#options.settings();
    const shown = {
      sequence: this.#sequence,
      merchantName: this.#options.engine.settings.get('merchant_name'),
      screen: { connected: this.#screens > 0, enabled: settings.customerScreen },
    };
    if (this.#options.counterLocked()) {
      return { ...shown, step: { step: 'idle' }, choices: { receiptNotices: [] } };
    }
    return {
      ...shown,
      ...(this.#saleSequence !== undefined && { saleSequence: this.#saleSequence }),
      step: this.#step,
      choices: this.#choices,
    };
  }

  /** A customer's screen has connected; returns what to call when it goes. */
  attachScreen(): () => void {
    this.#screens += 1;
    this.#announce();
    let attached = true;
    return () => {
      if (!attached) return;
      attached = false;
      this.#screens -= 1;
      this.#announce();
    };
  }

  /** The switch in Settings changed, or anything the view is made from: tell both screens. */
  refresh(): void {
    this.#announce();
  }

  stop(): void {
    this.#timers.clear(this.#timer);
  }

  /**
   * The counter was locked, or someone signed in: both screens are told. At the lock, a sale whose
   * card was charged (or is being charged) leaves the customer's screen as New sale would, so nobody
   * at a locked counter can sign for it or send its receipt, and it is not back at the next sign-in.
   * A sale still waiting for its card stays, behind the welcome, for its cashier's sign-in.
   */
  lockChanged(): void {
    if (this.#options.counterLocked() && CARD_TAKEN.has(this.#step.step)) this.#leave();
    else this.#announce();
  }

  /** What the customer's screen may ask: to see its step, and to answer it. */
  screenHandlers(): Pick<BridgeHandlers, CustomerScreenChannel> {
    return {
      'customer:view': () => this.view(),
      'customer:still-here': (input) => {
        if (input.sequence === this.#sequence) this.#timeStep();
        return this.view();
      },
      'customer:choose-tip': (input) => {
        const step = this.#expect(input.sequence, 'tip');
        const sale = this.#requireSale();
        if (sale.amountCents + input.tipCents > MAX_AMOUNT_CENTS) {
          throw new BridgeError('invalid-input', 'That tip is too large. Choose a smaller one.');
        }
        if (
          needsTipConfirm(sale.amountCents, input.tipCents, step.warnPercent, step.suggestions) &&
          !input.confirmed
        ) {
          throw new BridgeError(
            'refused',
            `A tip of ${displayMoney(input.tipCents)} is more than ${step.warnPercent}% of ${displayMoney(sale.amountCents)}. Confirm it first.`,
          );
        }
        const suggested = step.suggestions.find((suggestion) => suggestion.cents === input.tipCents);
        const label =
          input.tipCents === 0
            ? 'No tip'
            : suggested?.kind === 'percent'
              ? `${suggested.percent}%`
              : suggested
                ? displayMoney(suggested.cents)
                : 'Custom';
        this.#toSwipe({ ...sale, tipCents: input.tipCents }, { tipCents: input.tipCents, tipLabel: label });
        return this.view();
      },
      'customer:sign': async (input) => {
        this.#expect(input.sequence, 'signature');
        const transactionId = this.#choices.transactionId;
        if (transactionId === undefined)
          throw new BridgeError('refused', 'There is nothing to sign for now.');
        try {
          await this.#options.engine.signatures.keep(transactionId, input.strokes);
        } catch (error) {
          if (!(error instanceof SignatureRefusedError)) throw error;
          throw new BridgeError(
            error.reason === 'not-a-signature' ? 'invalid-input' : 'refused',
            error.message,
          );
        }
        // The signature is kept whatever the screens do next; only move on if nothing else moved them.
        if (this.#sequence === input.sequence) this.#afterSignature({ signed: true });
        return this.view();
      },
      'customer:choose-receipt': async (input) => {
        const step = this.#expect(input.sequence, 'receipt');
        if (this.#receiptChosenAt === input.sequence) {
          throw new BridgeError('refused', 'Your receipt is on its way already. Please wait a moment.');
        }
        const transactionId = this.#choices.transactionId;
        if (transactionId === undefined) throw new BridgeError('refused', 'There is no receipt to give now.');
        if (input.choice === 'none') {
          this.#toThanks({ receipt: 'none' });
          return this.view();
        }
        if (input.choice === 'print') {
          if (!step.print) throw new BridgeError('refused', 'This counter cannot print a receipt.');
          this.#toThanks({ receipt: 'print' });
          void this.#print(transactionId, ['customer']);
          return this.view();
        }
        if (!step.email) throw new BridgeError('refused', 'This counter cannot email a receipt.');
        const address = input.email?.trim() ?? '';
        if (!isEmailAddress(address)) throw new BridgeError('invalid-input', NOT_AN_ADDRESS);
        // This step's choice from here on: another tap, or another page, is refused while it is sent.
        this.#receiptChosenAt = input.sequence;
        const saleNumber = this.#saleNumber;
        try {
          // Kept before it is sent: whatever the mail server does, the cashier can send it again.
          await this.#options.engine.customerRecords.keepReceiptEmail(
            transactionId,
            address,
            this.#options.engine.now(),
          );
        } catch (error) {
          if (this.#receiptChosenAt === input.sequence) this.#receiptChosenAt = undefined;
          throw error;
        }
        // Shown only on the sale it was chosen for, never on the next one's screens.
        if (saleNumber === this.#saleNumber) {
          this.#choices = { ...this.#choices, receipt: 'email', receiptEmail: address };
        }
        try {
          const message = await this.#options.receipts.email(transactionId, address);
          this.#notice({ ok: true, message }, saleNumber, transactionId);
          if (this.#sequence === input.sequence) this.#toThanks({});
          else this.#announce();
        } catch (error) {
          if (!(error instanceof MailError)) {
            if (this.#receiptChosenAt === input.sequence) this.#receiptChosenAt = undefined;
            throw error;
          }
          this.#notice(
            { ok: false, message: `The receipt was not emailed: ${error.message}` },
            saleNumber,
            transactionId,
          );
          if (this.#sequence === input.sequence) {
            this.#show({
              ...step,
              problem: 'We could not email your receipt. Choose another way, or ask the cashier.',
            });
          } else this.#announce();
        }
        return this.view();
      },
    };
  }

  /** What the cashier's screens ask, to move the customer's screen along the sale. */
  cashierHandlers(): Pick<BridgeHandlers, CustomerCashierChannel> {
    return {
      'customer:start': (input) => {
        const settings = this.#options.settings();
        // A sale still on screen is left as New sale leaves it: what prints by itself still prints.
        this.#printLeftBehind();
        this.#saleNumber += 1;
        this.#printedAutomatic = false;
        this.#choices = { receiptNotices: [] };
        // The step shown next is the sale's first.
        this.#saleSequence = this.#sequence + 1;
        const sale = { amountCents: input.amountCents, tipCents: 0 };
        if (input.askTip && settings.counterTips && settings.tipsEnabled) {
          this.#sale = sale;
          this.#show({
            step: 'tip',
            amountCents: sale.amountCents,
            suggestions: tipSuggestions(sale.amountCents, {
              percentages: settings.tipPercentages,
              fixedBelowCents: settings.smartTipBelowCents,
              fixedAmountsCents: settings.smartTipAmountsCents,
            }),
            warnPercent: settings.tipWarnPercent,
          });
        } else {
          this.#toSwipe(sale, {});
        }
        return this.view();
      },
      'customer:skip': (input) => {
        if (input.sequence !== this.#sequence) {
          throw new BridgeError('refused', 'The customer’s screen has moved on. Look at it again.');
        }
        if (this.#step.step === 'tip') {
          this.#toSwipe({ ...this.#requireSale(), tipCents: 0 }, { tipCents: 0, tipLabel: 'Skipped' });
        } else if (this.#step.step === 'signature') {
          this.#afterSignature({ signed: false });
        } else {
          throw new BridgeError('refused', 'Only the tip and the signature can be skipped.');
        }
        return this.view();
      },
      'customer:cancel': (input) => {
        // A sale no longer on screen has nothing here to call off.
        if (input.saleSequence !== this.#saleSequence) return this.view();
        if (!CANCELLABLE.has(this.#step.step)) {
          throw new BridgeError('refused', 'The card was read already: the sale cannot be called off here.');
        }
        this.#toIdle();
        return this.view();
      },
      'customer:charging': (input) => {
        // Asked before the charge is sent: a sale called off (or replaced) meanwhile is not charged.
        this.#expectSale(input.saleSequence);
        const sale = this.#sale;
        if (sale && CHARGEABLE.has(this.#step.step)) {
          this.#show({ step: 'processing', totalCents: sale.amountCents + sale.tipCents });
        }
        return this.view();
      },
      'customer:answered': async (input) => {
        this.#expectSale(input.saleSequence);
        const sale = this.#sale;
        if (!sale || this.#step.step !== 'processing') return this.view();
        const totalCents = sale.amountCents + sale.tipCents;
        if (input.outcome === 'declined') this.#show({ step: 'declined', totalCents });
        else if (input.outcome === 'other') this.#show({ step: 'see-cashier', totalCents });
        else {
          await this.#requireCharged(input.transactionId, input.totalCents);
          // The sale may have left the screen while the ledger was read.
          if (this.#sale !== sale || this.#step.step !== 'processing') return this.view();
          this.#choices = { ...this.#choices, transactionId: input.transactionId };
          const above = this.#options.settings().signatureAboveCents;
          if (above !== null && input.totalCents >= above && this.#screens > 0) {
            this.#show({ step: 'signature', totalCents: input.totalCents });
          } else {
            this.#show({ step: 'approved', totalCents: input.totalCents });
            this.#afterSignature({});
          }
        }
        return this.view();
      },
      'customer:try-again': (input) => {
        this.#expectSale(input.saleSequence);
        const sale = this.#sale;
        if (sale && (this.#step.step === 'declined' || this.#step.step === 'see-cashier')) {
          this.#toSwipe(sale, {});
        }
        return this.view();
      },
      'customer:finish': (input) => {
        // Only this page's sale: another page's, started since, stays on the customer's screen.
        if (input.saleSequence === this.#saleSequence) this.#leave();
        return this.view();
      },
      'customer:open-screen': () => {
        const address = this.#options.pairingAddress;
        if (!address) {
          throw new BridgeError(
            'unavailable',
            'The desktop app shows the customer’s screen on a second display by itself, when one is plugged in.',
          );
        }
        return { address: address() };
      },
    };
  }

  #requireSale(): CustomerSale {
    if (!this.#sale) throw new BridgeError('refused', 'No sale is on the customer’s screen.');
    return this.#sale;
  }

  /** Refuses a cashier's request about a sale that is not the one on screen (another page's, or gone). */
  #expectSale(saleSequence: number): void {
    if (saleSequence !== this.#saleSequence) {
      throw new BridgeError('refused', 'That sale is no longer on the customer’s screen.');
    }
  }

  /** The step on screen, when it is `name` and the answer names it; refused otherwise. */
  #expect<N extends CustomerStep['step']>(sequence: number, name: N): Extract<CustomerStep, { step: N }> {
    const step = this.#step;
    if (sequence !== this.#sequence || step.step !== name) {
      throw new BridgeError('refused', 'The screen has moved on. Look at it again.');
    }
    return step as Extract<CustomerStep, { step: N }>;
  }

  #toSwipe(sale: CustomerSale, chosen: Partial<CustomerChoices>): void {
    this.#sale = sale;
    this.#choices = { ...this.#choices, ...chosen };
    this.#show({
      step: 'swipe',
      amountCents: sale.amountCents,
      tipCents: sale.tipCents,
      totalCents: sale.amountCents + sale.tipCents,
    });
  }

  /**
   * Refuses an approval the ledger does not bear out: the customer signs and chooses a receipt for
   * the transaction named, so it must be an approved charge, not voided, of the total the customer is
   * shown. Otherwise the cashier's page could show one amount and have the signature kept on another
   * charge.
   */
  async #requireCharged(transactionId: number, totalCents: number): Promise<void> {
    const charged = await this.#options.engine.reads.transaction(transactionId);
    const bornOut =
      charged !== undefined &&
      charged.result === 'Approved' &&
      charged.voidedBy === null &&
      CHARGES.has(charged.type) &&
      charged.amount === totalCents;
    if (!bornOut)
      throw new BridgeError(
        'refused',
        `Transaction #${transactionId} is not an approved charge of this total.`,
      );
  }

  /**
   * After the signature (or without one): what the settings print by themselves, now that the copy
   * to sign can carry the signature, then the receipt the customer chooses, if there is a choice.
   */
  #afterSignature(chosen: Pick<CustomerChoices, 'signed'>): void {
    const transactionId = this.#choices.transactionId;
    const sale = this.#sale;
    this.#choices = { ...this.#choices, ...chosen };
    if (transactionId === undefined || !sale) return this.#toThanks({});
    const { settings } = this.#options.engine;
    const printer = settings.get('receipt_printer') !== '';
    const customerCopy = settings.get('receipt_customer_copy');
    this.#printAutomaticOnce();
    const print = printer && customerCopy === 'ask';
    const email = settings.get('smtp_host') !== '' && settings.get('smtp_from') !== '';
    if (!print && !email) return this.#toThanks({});
    this.#show({ step: 'receipt', totalCents: sale.amountCents + sale.tipCents, print, email });
  }

  /**
   * The sale on screen goes, whatever step it is on, and the screen shows the welcome. A sale that
   * is still waiting for its signature is left as Skip leaves it: what the settings print by
   * themselves (the merchant copy to sign among them) still prints, once.
   */
  #leave(): void {
    this.#printLeftBehind();
    this.#toIdle();
  }

  /** The sale is leaving the screen: what prints by itself prints, if it has not yet. */
  #printLeftBehind(): void {
    if (this.#step.step === 'signature') this.#printAutomaticOnce();
  }

  /** What the settings print by themselves for the approved sale on screen, once per sale. */
  #printAutomaticOnce(): void {
    const transactionId = this.#choices.transactionId;
    if (transactionId === undefined || this.#printedAutomatic) return;
    this.#printedAutomatic = true;
    if (this.#options.engine.settings.get('receipt_printer') === '') return;
    void this.#printAutomatic(transactionId, this.#saleNumber);
  }

  async #printAutomatic(transactionId: number, saleNumber: number): Promise<void> {
    try {
      const { copies } = this.#options.receipts.automaticCopies(
        await this.#options.receipts.transaction(transactionId),
      );
      if (copies.length > 0) await this.#print(transactionId, copies, saleNumber);
    } catch (error) {
      console.error('tender: the receipts after a sale on the customer screen were not printed.', error);
    }
  }

  async #print(
    transactionId: number,
    copies: readonly ReceiptCopy[],
    saleNumber = this.#saleNumber,
  ): Promise<void> {
    const what = copies.map((copy) => COPY_WORDS[copy]).join(' and ');
    try {
      await this.#options.receipts.print(transactionId, copies);
      this.#notice({ ok: true, message: `${what} printed.` }, saleNumber, transactionId);
    } catch (error) {
      if (!(error instanceof PrinterError)) throw error;
      this.#notice(
        { ok: false, message: `${what} did not print: ${error.message}` },
        saleNumber,
        transactionId,
      );
    }
  }

  /**
   * Tells the cashier how a receipt of sale `saleNumber` went. One that finishes once that sale is
   * over is not the next sale's: a failure is told naming its transaction, so that the cashier can
   * send it again from its details, and a success, with nothing to act on (and another customer's
   * address in it), is not told at all.
   */
  #notice(
    notice: CustomerChoices['receiptNotices'][number],
    saleNumber: number,
    transactionId: number,
  ): void {
    const current = saleNumber === this.#saleNumber;
    if (!current && notice.ok) return;
    const told = current
      ? notice
      : { ok: false, message: `Transaction #${transactionId}: ${notice.message}` };
    this.#choices = {
      ...this.#choices,
      receiptNotices: [...this.#choices.receiptNotices, told].slice(-4),
    };
    this.#announce();
  }

  #toThanks(chosen: Partial<CustomerChoices>): void {
    this.#choices = { ...this.#choices, ...chosen };
    this.#show({ step: 'thanks' });
  }

  #toIdle(): void {
    this.#printedAutomatic = false;
    this.#sale = undefined;
    this.#saleSequence = undefined;
    this.#saleNumber += 1;
    this.#choices = { receiptNotices: [] };
    this.#show({ step: 'idle' });
  }

  #show(step: CustomerStep): void {
    this.#step = step;
    this.#sequence += 1;
    this.#timeStep();
    this.#announce();
  }

  /** Starts the time limit of the step on screen afresh, if it has one. */
  #timeStep(): void {
    this.#timers.clear(this.#timer);
    this.#timer = undefined;
    const { step } = this.#step;
    const shown = this.#sequence;
    if (step === 'thanks') {
      this.#timer = this.#timers.set(() => {
        if (this.#sequence === shown) this.#toIdle();
      }, this.#options.thanksMs ?? THANKS_MS);
    } else if (step === 'signature' || step === 'receipt') {
      this.#timer = this.#timers.set(() => {
        if (this.#sequence === shown) this.#leave();
      }, this.#options.unattendedMs ?? UNATTENDED_STEP_MS);
    }
  }

  get #timers(): CustomerTimers {
    return this.#options.timers ?? NODE_TIMERS;
  }

  #announce(): void {
    this.#options.events.emit('customer:changed', this.view());
  }
}
