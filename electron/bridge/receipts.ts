/**
 * Receipts from the cashier screens: the receipt and printer settings, a preview of any copy, prints
 * and reprints, what prints by itself after an approval, a test page, and email. Printing and mail
 * run after the transaction is on disk and answered; whatever the printer or mail server does, the
 * transaction stands, and the cashier is told what happened in words.
 */
import type { InvokeChannel, ReceiptCopyName, ReceiptSettings } from '../../shared/ipc/contract';
import type { Engine } from '../gateway/engine';
import { MailError } from '../gateway/receipts/mailer';
import { PrinterError, type PrinterOptions } from '../gateway/receipts/printer';
import { NotATabError, PageTooWideError, ReceiptNotFoundError } from '../gateway/receipts/receipt-service';
import type { SettingName } from '../gateway/settings';
import { ReadTimeoutError } from '../gateway/store/store-errors';
import { BridgeError, type BridgeHandlers } from './dispatch';

export type ReceiptChannel = Extract<InvokeChannel, `receipts:${string}`>;

export interface ReceiptHandlerOptions {
  engine: Engine;
  /** Passes when a manager allows a change (signed in, or by this PIN), with who the audit log names for it. */
  requirePin: (pin: string | undefined) => Promise<string>;
  /** The percentages the tab screen suggests, printed on the check. */
  tipPercentages: () => readonly number[];
  printer?: PrinterOptions;
  mailTimeoutMs?: number;
}

const COPY_WORDS: Record<ReceiptCopyName, string> = {
  customer: 'customer copy',
  merchant: 'merchant copy',
  check: 'check',
};

function lines(text: string): string[] {
  return text === '' ? [] : text.split('|');
}

export function receiptSettings(engine: Engine): ReceiptSettings {
  const { settings } = engine;
  return {
    merchantName: settings.get('merchant_name'),
    merchantAddress: lines(settings.get('merchant_address')),
    merchantPhone: settings.get('merchant_phone'),
    footer: lines(settings.get('receipt_footer')),
    printer: settings.get('receipt_printer'),
    width: settings.get('receipt_width'),
    customerCopy: settings.get('receipt_customer_copy'),
    merchantCopy: settings.get('receipt_merchant_copy'),
    merchantCopyAboveCents: settings.get('receipt_merchant_copy_above'),
    checkAtAuth: settings.get('receipt_check'),
    smtp: {
      host: settings.get('smtp_host'),
      port: settings.get('smtp_port'),
      security: settings.get('smtp_security'),
      user: settings.get('smtp_user'),
      from: settings.get('smtp_from'),
      passwordSet: settings.get('smtp_password') !== '',
    },
  };
}

/** Reads and sends fail in the cashier's words; anything else is the dispatcher's unexpected failure. */
async function inWords<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof PrinterError || error instanceof MailError) {
      throw new BridgeError('unavailable', error.message);
    }
    if (error instanceof ReceiptNotFoundError) {
      throw new BridgeError('refused', `${error.message} Check the number.`);
    }
    if (error instanceof NotATabError || error instanceof PageTooWideError) {
      throw new BridgeError('refused', error.message);
    }
    if (error instanceof ReadTimeoutError) {
      throw new BridgeError('unavailable', 'The ledger took too long to read. Try again in a moment.');
    }
    throw error;
  }
}

export function receiptHandlers(options: ReceiptHandlerOptions): Pick<BridgeHandlers, ReceiptChannel> {
  const { engine } = options;
  const receipts = engine.receipts({
    ...(options.printer && { printer: options.printer }),
    ...(options.mailTimeoutMs !== undefined && { mailTimeoutMs: options.mailTimeoutMs }),
  });
  const printOptions = (copies: readonly ReceiptCopyName[]) =>
    copies.includes('check') ? { tipPercentages: options.tipPercentages() } : {};

  return {
    'receipts:settings': () => receiptSettings(engine),
    'receipts:update-settings': async (input) => {
      const approvedBy = await options.requirePin(input.pin);
      const changes: [SettingName, string | undefined][] = [
        ['merchant_name', input.merchantName],
        [
          'merchant_address',
          input.merchantAddress
            ?.map((line) => line.trim())
            .filter(Boolean)
            .join('|'),
        ],
        ['merchant_phone', input.merchantPhone],
        [
          'receipt_footer',
          input.footer
            ?.map((line) => line.trim())
            .filter(Boolean)
            .join('|'),
        ],
        ['receipt_printer', input.printer?.trim()],
        ['receipt_width', input.width?.toString()],
        ['receipt_customer_copy', input.customerCopy],
        ['receipt_merchant_copy', input.merchantCopy],
        [
          'receipt_merchant_copy_above',
          input.merchantCopyAboveCents === undefined
            ? undefined
            : (input.merchantCopyAboveCents / 100).toFixed(2),
        ],
        ['receipt_check', input.checkAtAuth],
        ['smtp_host', input.smtpHost?.trim()],
        ['smtp_port', input.smtpPort?.toString()],
        ['smtp_security', input.smtpSecurity],
        ['smtp_user', input.smtpUser?.trim()],
        ['smtp_from', input.smtpFrom?.trim()],
        ['smtp_password', input.smtpPassword],
      ];
      // Every value is checked before any is written, so a bad one changes nothing.
      const settings = engine.settings;
      for (const [name, value] of changes) {
        const refusal = value === undefined ? undefined : settings.refusal(name, value);
        if (refusal !== undefined) throw new BridgeError('invalid-input', refusal);
      }
      // Only what changes is written: each write is an entry in the audit log.
      await settings.change(
        changes.flatMap(([name, value]) =>
          value !== undefined && settings.wouldChange(name, value) ? [[name, value] as const] : [],
        ),
        approvedBy,
      );
      return receiptSettings(engine);
    },
    'receipts:preview': (input) =>
      inWords(async () => {
        const width = input.width ?? receipts.width();
        const { document, lines: printed } = await receipts.render(input.id, input.copy, {
          width,
          ...printOptions([input.copy]),
        });
        return { id: input.id, copy: input.copy, width, title: document.title, lines: printed };
      }),
    'receipts:print': (input) =>
      inWords(async () => ({
        message: await receipts.print(input.id, input.copies, printOptions(input.copies)),
      })),
    'receipts:after-approval': (input) =>
      inWords(async () => {
        const transaction = await receipts.transaction(input.id);
        const { copies, offerCustomerCopy } = receipts.automaticCopies(transaction);
        // Without a printer there is nothing to print by itself; the buttons still offer the receipt.
        if (copies.length === 0 || engine.settings.get('receipt_printer') === '') {
          return { printed: [], offerCustomerCopy };
        }
        try {
          await receipts.print(input.id, copies, printOptions(copies));
          return { printed: copies, offerCustomerCopy };
        } catch (error) {
          if (!(error instanceof PrinterError)) throw error;
          const what = copies.map((copy) => COPY_WORDS[copy]).join(' and ');
          return {
            printed: [],
            offerCustomerCopy,
            problem: `The ${what} did not print: ${error.message} The transaction went through.`,
          };
        }
      }),
    'receipts:test-print': () => inWords(async () => ({ message: await receipts.testPrint() })),
    'receipts:customer-kept': async (input) => {
      const [signature, address] = await Promise.all([
        engine.customerRecords.signature(input.id),
        engine.customerRecords.receiptEmail(input.id),
      ]);
      return { signed: signature !== undefined, address: address ?? null };
    },
    'receipts:print-report': (input) =>
      inWords(async () => ({ message: await receipts.printPage(input.lines) })),
    'receipts:email': (input) =>
      inWords(async () => {
        // Without an address: the one the receipt went to before, else the one sent with the sale.
        const to =
          input.to === undefined || input.to === ''
            ? await engine.customerRecords.receiptEmail(input.id)
            : input.to;
        const message = await receipts.email(input.id, to);
        // The receipt has gone: a store that cannot keep the address now does not make it a failure.
        if (to !== undefined) {
          await engine.customerRecords
            .keepReceiptEmail(input.id, to.trim(), engine.now())
            .catch((error: unknown) => console.error('tender: the receipt address was not kept.', error));
        }
        return { message };
      }),
  };
}
