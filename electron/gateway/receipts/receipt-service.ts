/**
 * Receipts for any transaction in the ledger: read on a reader thread (never the connection that
 * answers payments), made into a document with the merchant's settings, and rendered, printed or
 * emailed, the merchant copy with the customer's signature when they signed on screen. Nothing here
 * writes to the ledger: a print or an email that fails changes no transaction.
 */
import { isAuthorizationExpired } from '../../../shared/authorization';
import { COUNTER_SALE_WITH_TIP } from '../../../shared/tips';
import type { Settings } from '../settings';
import type { LedgerReadPort } from '../store/read-port';
import type { LedgerTransaction } from '../store/transaction-rows';
import { escposBytes } from './escpos';
import { drawSignature, SIGNATURE_PRINT_SIZE, signatureRgba } from './signature-image';
import { isEmailAddress, MailError, NOT_AN_ADDRESS, sendReceiptMail } from './mailer';
import { sendToPrinter, type PrinterOptions } from './printer';
import {
  DEFAULT_TIP_PERCENTAGES,
  receiptDocument,
  receiptPieces,
  renderReceipt,
  type MerchantDetails,
  type ReceiptCopy,
  type ReceiptDocument,
  type ReceiptWidth,
} from './receipt';

export class ReceiptNotFoundError extends Error {
  constructor(readonly id: number) {
    super(`No transaction has id ${id}.`);
  }
}

/**
 * The check of a transaction that has none: only an open tab (an approved AUTH, neither voided nor
 * captured nor expired, not a sale tipped at the counter) has one.
 */
export class NotATabError extends Error {
  constructor(
    readonly id: number,
    message = `Transaction ${id} is not a tab (an approved AUTH not voided): only a tab has a check.`,
  ) {
    super(message);
  }
}

/**
 * Why `t` has no check, or undefined for an open tab, which has one. A check is what the guest
 * writes the tip on before the tab is captured: a sale tipped at the counter opened no tab and its
 * amount already has the tip, and a captured tab has its tip, so a check of either would ask for a
 * second tip. A tab past its expiry can no longer be captured, so a tip written on its check could
 * never be charged.
 */
function noCheckBecause(t: LedgerTransaction, expiry: { days: number; now: number }): string | undefined {
  if (t.type !== 'Auth' || t.result !== 'Approved' || t.voidedBy !== null) {
    return `Transaction ${t.id} is not a tab (an approved AUTH not voided): only a tab has a check.`;
  }
  if (t.description === COUNTER_SALE_WITH_TIP) {
    return `Transaction ${t.id} is a sale tipped at the counter, not a tab: its amount already has the tip, so it has no check.`;
  }
  if (t.capturedBy !== null) {
    return `Tab #${t.id} is already captured with its tip by transaction ${t.capturedBy}: a check is for writing the tip before the capture. Print the receipt of transaction ${t.capturedBy} instead.`;
  }
  if (isAuthorizationExpired(t, expiry.days, expiry.now)) {
    return `Tab #${t.id} has expired: it is older than ${expiry.days} days and can no longer be captured, so it has no check. Void it to release the hold.`;
  }
  return undefined;
}

/** A page whose lines are wider than the paper: it was laid out before the paper width changed. */
export class PageTooWideError extends Error {
  constructor(readonly width: number) {
    super(`The page is wider than the ${width} columns of the receipt paper now set. Print it again.`);
  }
}

export interface RenderedReceipt {
  document: ReceiptDocument;
  lines: string[];
}

/** What differs by who prints: the printer's and the mail's time limits, the counter's tip suggestions. */
export interface ReceiptOptions {
  printer?: PrinterOptions;
  mailTimeoutMs?: number;
  /** The counter's suggested tip percentages, which its checks print; the defaults without one. */
  tipPercentages?: () => readonly number[];
}

/** What comes from the engine (Engine.receipts), the same for every caller. */
export interface ReceiptSources {
  reads: LedgerReadPort;
  settings: Settings;
  /** The customers' signatures, for the copy to sign. */
  signatures: { strokes(transactionId: number): Promise<number[][] | undefined> };
  /** The engine's clock, which says whether a tab has expired. */
  now: () => number;
}

interface RenderOptions {
  width?: ReceiptWidth;
  tipPercentages?: readonly number[];
  /** The customer signed on screen. */
  signed?: boolean;
}

/** What the counter prints on its own after an approval, and whether it offers the customer copy. */
export interface AutomaticReceipts {
  copies: ReceiptCopy[];
  offerCustomerCopy: boolean;
}

export class ReceiptService {
  private readonly reads: LedgerReadPort;
  private readonly settings: Settings;

  /** Made by Engine.receipts, so every receipt reads the engine's clock and signatures. */
  constructor(
    private readonly sources: ReceiptSources,
    private readonly options: ReceiptOptions = {},
  ) {
    this.reads = sources.reads;
    this.settings = sources.settings;
  }

  merchant(): MerchantDetails {
    const address = this.settings.get('merchant_address');
    return {
      name: this.settings.get('merchant_name'),
      addressLines: address === '' ? [] : address.split('|'),
      phone: this.settings.get('merchant_phone'),
      footer: this.settings.get('receipt_footer'),
    };
  }

  width(): ReceiptWidth {
    return this.settings.get('receipt_width');
  }

  async transaction(id: number): Promise<LedgerTransaction> {
    const found = await this.reads.transaction(id);
    if (!found) throw new ReceiptNotFoundError(id);
    return found;
  }

  async render(
    id: number,
    copy: ReceiptCopy,
    options: Omit<RenderOptions, 'signed'> = {},
  ): Promise<RenderedReceipt> {
    const transaction = await this.transaction(id);
    const signed = copy !== 'customer' && (await this.signatureOf(id)) !== undefined;
    return this.renderOf(transaction, copy, { ...options, signed });
  }

  renderOf(transaction: LedgerTransaction, copy: ReceiptCopy, options: RenderOptions = {}): RenderedReceipt {
    const document = this.documentOf(transaction, copy, options);
    return { document, lines: renderReceipt(document, options.width ?? this.width()) };
  }

  private documentOf(transaction: LedgerTransaction, copy: ReceiptCopy, options: RenderOptions) {
    const noCheck = copy === 'check' ? noCheckBecause(transaction, this.expiry()) : undefined;
    if (noCheck !== undefined) throw new NotATabError(transaction.id, noCheck);
    const takesTips = this.settings.get('tips_enabled');
    return receiptDocument(transaction, {
      copy,
      merchant: this.merchant(),
      takesTips,
      ...(copy === 'check' &&
        takesTips && {
          tipPercentages:
            options.tipPercentages ?? this.options.tipPercentages?.() ?? DEFAULT_TIP_PERCENTAGES,
        }),
      ...(options.signed && { signed: true }),
    });
  }

  /** The authorization expiry in force, as the engine refuses a capture by it. */
  private expiry(): { days: number; now: number } {
    return { days: this.settings.get('auth_expiry_days'), now: this.sources.now() };
  }

  private signatureOf(id: number): Promise<number[][] | undefined> {
    return this.sources.signatures.strokes(id);
  }

  /** The copies the settings print by themselves for this transaction once it is approved. */
  automaticCopies(transaction: LedgerTransaction): AutomaticReceipts {
    if (transaction.result !== 'Approved') return { copies: [], offerCustomerCopy: false };
    if (transaction.type === 'Auth') {
      // Only an open tab has a check: not the AUTH of a sale tipped at the counter, captured at once.
      const check =
        this.settings.get('receipt_check') === 'always' &&
        noCheckBecause(transaction, this.expiry()) === undefined;
      return {
        copies: check ? ['check'] : [],
        offerCustomerCopy: false,
      };
    }
    const copies: ReceiptCopy[] = [];
    const customer = this.settings.get('receipt_customer_copy');
    if (customer === 'always') copies.push('customer');
    const merchant = this.settings.get('receipt_merchant_copy');
    const above = this.settings.get('receipt_merchant_copy_above');
    if (merchant === 'always' || (merchant === 'above' && (transaction.amount ?? 0) > above)) {
      copies.push('merchant');
    }
    return { copies, offerCustomerCopy: customer === 'ask' };
  }

  /** Prints copies of one transaction, each cut apart; says where they went. */
  async print(
    id: number,
    copies: readonly ReceiptCopy[],
    options: { printer?: string; width?: ReceiptWidth; tipPercentages?: readonly number[] } = {},
  ): Promise<string> {
    const transaction = await this.transaction(id);
    const width = options.width ?? this.width();
    const signature = copies.some((copy) => copy !== 'customer') ? await this.signatureOf(id) : undefined;
    const pages = copies.map((copy) =>
      receiptPieces(
        this.documentOf(transaction, copy, { ...options, signed: signature !== undefined }),
        width,
      ),
    );
    const picture = signature && signatureRgba(drawSignature(signature, SIGNATURE_PRINT_SIZE));
    return this.send(await escposBytes(pages, width, picture), options.printer);
  }

  /**
   * Prints a page laid out elsewhere for this paper (the end-of-day report): lines of at most the
   * receipt width, cut after the last.
   */
  printPage(lines: readonly string[]): Promise<string> {
    const width = this.width();
    const tooWide = lines.find((line) => line.length > width);
    if (tooWide !== undefined) throw new PageTooWideError(width);
    return escposBytes([lines], width).then((bytes) => this.send(bytes));
  }

  /** A short page that shows the printer, the paper width and the merchant lines are right. */
  testPrint(): Promise<string> {
    const width = this.width();
    const merchant = this.merchant();
    const lines = [
      merchant.name || 'Tender',
      ...merchant.addressLines,
      ...(merchant.phone ? [merchant.phone] : []),
      '',
      'TEST PRINT',
      `${width} columns:`,
      '1234567890'.repeat(5).slice(0, width),
      '',
      'The receipt printer works.',
    ];
    return escposBytes([lines], width).then((bytes) => this.send(bytes));
  }

  private send(bytes: Uint8Array, printer?: string): Promise<string> {
    return sendToPrinter(printer ?? this.settings.get('receipt_printer'), bytes, this.options.printer);
  }

  /** Emails the customer copy to `to`, or to the email the transaction was sent with. */
  async email(id: number, to?: string): Promise<string> {
    const transaction = await this.transaction(id);
    const address = (to ?? transaction.email ?? '').trim();
    if (address === '') {
      throw new MailError('This transaction has no email address. Type the customer’s address.');
    }
    if (!isEmailAddress(address)) {
      throw new MailError(NOT_AN_ADDRESS);
    }
    const { document, lines } = this.renderOf(transaction, 'customer');
    const from = document.merchant.name || 'Tender';
    return sendReceiptMail(
      {
        host: this.settings.get('smtp_host'),
        port: this.settings.get('smtp_port'),
        security: this.settings.get('smtp_security'),
        user: this.settings.get('smtp_user'),
        password: this.settings.get('smtp_password'),
        from: this.settings.get('smtp_from'),
      },
      { to: address, subject: `Your receipt from ${from}: ${document.title} #${document.id}`, lines },
      this.options.mailTimeoutMs === undefined ? {} : { timeoutMs: this.options.mailTimeoutMs },
    );
  }
}
