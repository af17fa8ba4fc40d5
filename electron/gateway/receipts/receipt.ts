/**
 * A receipt: what a ledger transaction and the merchant's settings say on paper, in an email and on
 * the screen's preview. One document per copy (the customer's, the merchant's with a signature line,
 * and for an open tab the check the guest writes the tip on), rendered to text lines of 32, 42 or 48
 * columns. The card shows as its brand and last four digits only: the ledger holds nothing more, and
 * nothing here asks for the expiry.
 */
import { brandLabel, type CardBrand } from '../../../shared/cards';
import { displayMoney } from '../../../shared/money';
import { center, labelled, oneLine, wrap } from '../../../shared/paper-text';
import type { TransactionResult, TransactionTypeLabel } from '../../../shared/api/transaction-types';
import type { ForwardState } from '../store/transaction-rows';
import { isCounterSaleWithTip } from '../../../shared/tips';

export const RECEIPT_COPIES = ['customer', 'merchant', 'check'] as const;
export type ReceiptCopy = (typeof RECEIPT_COPIES)[number];

/** The tips a check suggests until a manager chooses others (the tab screen suggests the same). */
export const DEFAULT_TIP_PERCENTAGES: readonly number[] = [15, 18, 20];

/** 58 mm paper prints 32 columns; 80 mm paper 42 (Font A on most printers) or 48 (Font B). */
export const RECEIPT_WIDTHS = [32, 42, 48] as const;
export type ReceiptWidth = (typeof RECEIPT_WIDTHS)[number];

export function isReceiptWidth(value: number): value is ReceiptWidth {
  return (RECEIPT_WIDTHS as readonly number[]).includes(value);
}

/** The fields of a ledger transaction a receipt reads; `LedgerTransaction` has all of them. */
export interface ReceiptTransaction {
  id: number;
  type: TransactionTypeLabel | null;
  result: TransactionResult;
  displayMessage: string;
  /** Cents, tip included. */
  amount: number | null;
  tipAmount: number;
  authorizationCode: string | null;
  cardLastFour: string | null;
  cardBrand: string | null;
  entryMode: string | null;
  invoice: string | null;
  orderNumber: string | null;
  serverId: string | null;
  firstName: string | null;
  lastName: string | null;
  originalId: number | null;
  /** The request's purpose; a counter sale tipped before the card says so (COUNTER_SALE_WITH_TIP). */
  description: string | null;
  createdAt: number;
  /** Approved while the gateway could not be reached, to be forwarded. */
  offline: boolean;
  forwardState: ForwardState | null;
  /** The VOID that cancelled it, when one did. */
  voidedBy?: number | null;
}

export interface MerchantDetails {
  name: string;
  addressLines: string[];
  phone: string;
  footer: string;
}

export interface ReceiptField {
  label: string;
  value: string;
}

/** A suggested tip on the check: the percentage, the tip and the total it makes. */
export interface SuggestedTip {
  percent: number;
  tip: string;
  total: string;
}

export interface ReceiptDocument {
  id: number;
  copy: ReceiptCopy;
  merchant: { name: string; addressLines: string[]; phone: string };
  /** The transaction type in words: SALE, FORCED SALE, AUTH (TAB), CAPTURE (TAB), REFUND, VOID. */
  title: string;
  /** Date, time, ids, the masked card (labelled with how it was taken), each with its label. */
  fields: ReceiptField[];
  /**
   * Amount, tip and total as the copy prints them; on the check of a counter that takes tips, TIP and
   * TOTAL are blank lines to fill in.
   */
  amounts: ReceiptField[];
  /** APPROVED, APPROVED OFFLINE, VOIDED, DECLINED, REJECTED, ERROR. */
  result: string;
  /** The engine's message on a transaction that was not approved. */
  message?: string;
  suggestedTips: SuggestedTip[];
  signature: boolean;
  /**
   * The customer signed on the screen turned to them: the copy to sign shows their signature (as a
   * picture on paper) in place of the line to sign on.
   */
  signed: boolean;
  /** CUSTOMER COPY, MERCHANT COPY or CHECK. */
  copyLabel: string;
  footer: string;
}

export interface ReceiptOptions {
  copy: ReceiptCopy;
  merchant: MerchantDetails;
  /**
   * Whether the counter takes tips (tips_enabled): only then does a check leave TIP and TOTAL to fill
   * in and suggest tips. A check never invites a tip the counter cannot take.
   */
  takesTips?: boolean;
  /** The tab screen's suggested percentages; a check of a counter that takes tips prints a tip and a total for each. */
  tipPercentages?: readonly number[];
  /** The time zone the date and time are printed in (IANA name); the terminal's own by default. */
  timeZone?: string;
  /** The customer signed on screen for this transaction. */
  signed?: boolean;
}

const TITLES: Record<TransactionTypeLabel, string> = {
  Sale: 'SALE',
  'Forced Sale': 'FORCED SALE',
  Auth: 'AUTH',
  Capture: 'CAPTURE',
  Refund: 'REFUND',
  Void: 'VOID',
};

const COPY_LABELS: Record<ReceiptCopy, string> = {
  customer: 'CUSTOMER COPY',
  merchant: 'MERCHANT COPY',
  check: 'CHECK',
};

/** How the card was taken, in the customer's words: the label of the card's line. */
const ENTRY_WORDS: Record<string, string> = { swiped: 'Swiped', keyed: 'Typed in' };

/** A tab's transactions: its AUTH (the tab opened, and its check) and the CAPTURE that closed it. */
const TAB_TYPES: ReadonlySet<TransactionTypeLabel> = new Set(['Auth', 'Capture']);

/**
 * The result line, and the words under it: an offline approval says so, and, once the card network
 * has declined it, that it was declined after all.
 */
function resultWords(t: ReceiptTransaction): Pick<ReceiptDocument, 'result' | 'message'> {
  if (isVoided(t)) {
    const undone =
      t.type === 'Refund'
        ? 'nothing is refunded'
        : t.type === 'Auth'
          ? 'the hold on the card is released'
          : 'nothing is charged';
    return { result: 'VOIDED', message: `Voided by transaction #${String(t.voidedBy)}: ${undone}.` };
  }
  if (t.offline && t.result === 'Approved') {
    if (t.forwardState === 'declined') {
      return {
        result: 'DECLINED',
        message: 'Approved offline, then declined by the card network when it was sent.',
      };
    }
    return {
      result: 'APPROVED OFFLINE',
      message: 'Approved while the card network was down; sent to it when it is back.',
    };
  }
  const message = oneLine(t.displayMessage);
  return {
    result: t.result.toUpperCase(),
    ...(t.result !== 'Approved' && message && { message }),
  };
}

/** Approved, then cancelled by a VOID: a copy printed again says so, and asks for no signature. */
function isVoided(t: ReceiptTransaction): boolean {
  return t.result === 'Approved' && t.voidedBy !== undefined && t.voidedBy !== null;
}

/** What charges the customer's card: a sale, a forced sale, and the capture that finishes a tab. */
const CHARGES: ReadonlySet<TransactionTypeLabel> = new Set(['Sale', 'Forced Sale', 'Capture']);

/**
 * Whether the copy asks the customer to sign: the check of a tab, where the guest writes the tip, and
 * the merchant copy of a charge that stands. A refund or a void takes nothing from the customer, and
 * an offline sale the card network declined when it was sent charged nobody: none of them has the
 * customer agree to pay.
 */
function asksToSign(t: ReceiptTransaction, copy: ReceiptCopy): boolean {
  if (copy === 'customer' || t.result !== 'Approved' || isVoided(t)) return false;
  if (copy === 'check') return t.type === 'Auth';
  return t.type !== null && CHARGES.has(t.type) && !(t.offline && t.forwardState === 'declined');
}

function titleOf(t: ReceiptTransaction): string {
  if (t.type === null) return 'TRANSACTION';
  if (isCounterSaleWithTip(t)) return t.type === 'Capture' ? TITLES.Sale : TITLES.Auth;
  return TAB_TYPES.has(t.type) ? `${TITLES[t.type]} (TAB)` : TITLES[t.type];
}

const BRANDS = new Set<string>(['visa', 'mastercard', 'amex', 'discover', 'diners', 'jcb', 'unionpay']);

function brandName(brand: string | null): string {
  if (brand === null) return 'Card';
  return BRANDS.has(brand) ? brandLabel(brand as CardBrand) : 'Card';
}

/** "Visa **** 1111": the brand and the last four digits, and nothing else of the card. */
export function maskedCard(brand: string | null, lastFour: string | null): string | undefined {
  if (lastFour === null || !/^\d{4}$/.test(lastFour)) return undefined;
  return `${brandName(brand)} **** ${lastFour}`;
}

/** Date and time as the terminal's clock reads them: "2026-11-24" and "14:05:09". */
function dateAndTime(epochMs: number, timeZone: string | undefined): { date: string; time: string } {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(epochMs));
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return {
    date: `${part('year')}-${part('month')}-${part('day')}`,
    time: `${part('hour')}:${part('minute')}:${part('second')}`,
  };
}

/** A tip of `percent` on `cents`, rounded to the nearest cent (half up), as the tab screen rounds it. */
export function tipFor(cents: number, percent: number): number {
  return Math.round((cents * percent) / 100);
}

export function receiptDocument(t: ReceiptTransaction, options: ReceiptOptions): ReceiptDocument {
  const { copy, merchant } = options;
  const title = titleOf(t);
  const { date, time } = dateAndTime(t.createdAt, options.timeZone);
  const fields: ReceiptField[] = [
    { label: 'Date', value: date },
    { label: 'Time', value: time },
    { label: copy === 'check' ? 'Tab' : 'Transaction', value: `#${t.id}` },
  ];
  const namesOriginal =
    t.type === 'Refund' || t.type === 'Void' || (t.type === 'Capture' && !isCounterSaleWithTip(t));
  if (t.originalId !== null && namesOriginal) {
    const verb = t.type === 'Capture' ? 'Tab' : t.type === 'Refund' ? 'Refund of' : 'Void of';
    fields.push({ label: verb, value: `#${t.originalId}` });
  }
  if (t.invoice) fields.push({ label: 'Invoice', value: t.invoice });
  if (t.orderNumber) fields.push({ label: 'Order', value: t.orderNumber });
  if (t.serverId) fields.push({ label: 'Server', value: t.serverId });
  const card = maskedCard(t.cardBrand, t.cardLastFour);
  const entry = t.entryMode === null ? undefined : ENTRY_WORDS[t.entryMode];
  if (card) fields.push({ label: entry ?? 'Card', value: card });
  const name = [t.firstName, t.lastName].filter(Boolean).join(' ');
  if (name) fields.push({ label: 'Name', value: name });
  if (t.authorizationCode) fields.push({ label: 'Auth code', value: t.authorizationCode });

  const total = t.amount ?? 0;
  const tip = t.amount === null ? 0 : t.tipAmount;
  const amounts: ReceiptField[] = [];
  let suggestedTips: SuggestedTip[] = [];
  if (copy === 'check' && options.takesTips === true) {
    amounts.push({ label: 'AMOUNT', value: displayMoney(total) });
    amounts.push({ label: 'TIP', value: '' }, { label: 'TOTAL', value: '' });
    suggestedTips = (options.tipPercentages ?? []).map((percent) => {
      const suggested = tipFor(total, percent);
      return { percent, tip: displayMoney(suggested), total: displayMoney(total + suggested) };
    });
  } else if (copy === 'check') {
    amounts.push(
      { label: 'AMOUNT', value: displayMoney(total) },
      { label: 'TOTAL', value: displayMoney(total) },
    );
  } else if (t.amount !== null) {
    amounts.push({ label: 'AMOUNT', value: displayMoney(total - tip) });
    if (tip > 0) amounts.push({ label: 'TIP', value: displayMoney(tip) });
    amounts.push({ label: 'TOTAL', value: displayMoney(total) });
  }

  return {
    id: t.id,
    copy,
    merchant: {
      name: oneLine(merchant.name),
      addressLines: merchant.addressLines.map(oneLine),
      phone: oneLine(merchant.phone),
    },
    title,
    // As the lines print them: a line break or a tab in an invoice or a name is a space.
    fields: fields
      .map((field) => ({ label: field.label, value: oneLine(field.value) }))
      .filter((field) => field.value !== ''),
    amounts,
    ...resultWords(t),
    suggestedTips,
    signature: asksToSign(t, copy),
    signed: asksToSign(t, copy) && options.signed === true,
    copyLabel: COPY_LABELS[copy],
    footer: oneLine(merchant.footer),
  };
}

// ---------------------------------------------------------------------------------------------
// Text

/** A label with a line to write on: "TIP      ______________". */
function blank(label: string, width: number): string {
  const line = Math.min(20, width - label.length - 2);
  return `${label}${' '.repeat(width - label.length - line)}${'_'.repeat(line)}`;
}

/** Where the customer's signature is printed as a picture, among the lines of a copy. */
export const SIGNATURE_PICTURE = { picture: 'signature' } as const;
export type ReceiptPiece = string | typeof SIGNATURE_PICTURE;

/** What stands for the signature's picture where only text can be shown. */
const SIGNATURE_IN_TEXT = '[signature]';

/** The document as lines of exactly the paper's width or less, with no trailing spaces. */
export function renderReceipt(receipt: ReceiptDocument, width: ReceiptWidth): string[] {
  return receiptPieces(receipt, width).flatMap((piece) =>
    typeof piece === 'string' ? [piece] : center(SIGNATURE_IN_TEXT, width),
  );
}

/**
 * The document as it is printed: its lines, and the customer's signature as a picture where it
 * goes when they signed on screen.
 */
export function receiptPieces(receipt: ReceiptDocument, width: ReceiptWidth): ReceiptPiece[] {
  const lines: ReceiptPiece[] = [];
  const rule = '-'.repeat(width);
  const { merchant } = receipt;
  if (merchant.name) lines.push(...center(merchant.name, width));
  for (const address of merchant.addressLines) lines.push(...center(address, width));
  if (merchant.phone) lines.push(...center(merchant.phone, width));
  lines.push('', ...center(receipt.title, width), '');
  for (const field of receipt.fields) lines.push(...labelled(field.label, field.value, width));
  lines.push(rule);
  for (const amount of receipt.amounts) {
    if (amount.value === '') lines.push(blank(amount.label, width), '');
    else lines.push(...labelled(amount.label, amount.value, width));
  }
  if (receipt.amounts.length > 0) lines.push(rule);
  lines.push(...center(receipt.result, width));
  if (receipt.message) lines.push(...wrap(receipt.message, width));
  if (receipt.suggestedTips.length > 0) {
    lines.push('', ...center('Suggested tips', width));
    for (const suggestion of receipt.suggestedTips) {
      lines.push(
        ...labelled(`${suggestion.percent}%  tip ${suggestion.tip}`, `total ${suggestion.total}`, width),
      );
    }
  }
  if (receipt.signed) {
    lines.push('', SIGNATURE_PICTURE, ...center('Signed on screen', width));
    if (receipt.copy === 'merchant') lines.push(...center('I agree to pay the above total', width));
  } else if (receipt.signature) {
    lines.push('', '', `x${'_'.repeat(width - 1)}`, ...center('Signature', width));
    if (receipt.copy === 'merchant') lines.push(...center('I agree to pay the above total', width));
  }
  lines.push('', ...center(receipt.copyLabel, width));
  if (receipt.footer)
    lines.push('', ...receipt.footer.split('|').flatMap((line) => center(line.trim(), width)));
  return lines.map((line) => (typeof line === 'string' ? line.trimEnd() : line));
}
