/**
 * Receipts on an answer screen, once the transaction is approved: what the settings print by
 * themselves goes to the printer at once (the check of a new tab, the merchant copy to sign),
 * and **Print receipt**, **Email receipt** and **Preview** are offered. A printer that fails is said
 * in words; the transaction stands whatever the printer does.
 */
import { useEffect, useRef, useState } from 'react';
import type { ReceiptCopyName } from '../../../shared/ipc/contract';
import { useTerminal } from '../terminal/terminal-context';
import { useCounterOpen } from '../ui/counter-open';
import { BusyButton } from '../ui/BusyButton';
import { ResultNotice } from '../ui/ResultNotice';
import { ReceiptDialog } from './ReceiptDialog';
import { ReceiptEmailForm } from './ReceiptEmailForm';
import { emailReceipt, firstTimeFor, messageOf, printCopies, type Delivery } from './receipt-requests';

const PRINTED_WORDS: Record<ReceiptCopyName, string> = {
  customer: 'Customer copy',
  merchant: 'Merchant copy to sign',
  check: 'Check',
};

export function ReceiptActions({
  transactionId,
  isTab,
  printsByItself = true,
}: {
  transactionId: string;
  isTab: boolean;
  /** Print what the settings print by themselves; off when the customer's screen does it after signing. */
  printsByItself?: boolean;
}) {
  const { bridge } = useTerminal();
  const open = useCounterOpen();
  const id = Number(transactionId);
  const [automatic, setAutomatic] = useState<Delivery>();
  const [delivery, setDelivery] = useState<Delivery>();
  const [busy, setBusy] = useState<'print' | 'email'>();
  const [emailing, setEmailing] = useState(false);
  const [address, setAddress] = useState('');
  const [previewing, setPreviewing] = useState(false);
  const [offer, setOffer] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const previewed = useRef(false);
  const failed = automatic?.ok === false || delivery?.ok === false;

  // Esc puts away what the printer or the mail server said went wrong, and nothing else: the answer
  // it was said on stays, with its buttons. Heard before the answer's own keys (where Esc leaves it).
  useEffect(() => {
    if (!failed || previewing) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey)
        return;
      event.preventDefault();
      event.stopPropagation();
      setAutomatic((shown) => (shown?.ok === false ? undefined : shown));
      setDelivery((shown) => (shown?.ok === false ? undefined : shown));
    };
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, [failed, previewing]);

  // Closing the preview hands the keyboard to the answer's way on (New sale, Done), not back to
  // Preview, where the next Enter would open it again. Runs after the dialog gave focus back.
  useEffect(() => {
    if (previewing) {
      previewed.current = true;
      return;
    }
    if (!previewed.current) return;
    root.current
      ?.closest('[data-answer]')
      ?.querySelector<HTMLElement>('[data-answer-actions] .button-primary')
      ?.focus();
  }, [previewing]);

  useEffect(() => {
    // An answer that came after the lock prints at the next sign-in.
    if (!open || !printsByItself || !Number.isSafeInteger(id) || id < 1 || !firstTimeFor(id)) return;
    bridge.invoke('receipts:after-approval', { id }).then(
      (answer) => {
        setOffer(answer.offerCustomerCopy);
        if (answer.problem) setAutomatic({ ok: false, message: answer.problem });
        else if (answer.printed.length > 0) {
          const what = answer.printed.map((copy) => PRINTED_WORDS[copy]).join(' and ');
          setAutomatic({ ok: true, message: `${what} printed.` });
        }
      },
      (error: unknown) => setAutomatic({ ok: false, message: messageOf(error) }),
    );
  }, [printsByItself, bridge, id, open]);

  const print = async () => {
    setBusy('print');
    setDelivery(await printCopies(bridge, id, [isTab ? 'check' : 'customer']));
    setBusy(undefined);
  };
  const email = async () => {
    setBusy('email');
    const sent = await emailReceipt(bridge, id, address);
    setDelivery(sent);
    if (sent.ok) setEmailing(false);
    setBusy(undefined);
  };

  return (
    <div
      ref={root}
      className="receipt-actions"
      data-testid="receipt-actions"
      onKeyDown={(event) => event.stopPropagation()}
    >
      <ResultNotice result={automatic} />
      {offer && !delivery && <p className="receipt-offer">Does the customer want a receipt?</p>}
      <div className="receipt-buttons">
        <BusyButton
          type="button"
          className="button button-secondary"
          busy={busy === 'print'}
          onClick={() => void print()}
        >
          {isTab ? 'Print check' : 'Print receipt'}
        </BusyButton>
        {!isTab && (
          <button
            type="button"
            className="button button-secondary"
            aria-expanded={emailing}
            onClick={() => setEmailing((open) => !open)}
          >
            Email receipt
          </button>
        )}
        <button type="button" className="button button-quiet" onClick={() => setPreviewing(true)}>
          Preview
        </button>
      </div>
      {emailing && (
        <ReceiptEmailForm
          address={address}
          onAddress={setAddress}
          sending={busy === 'email'}
          onSend={() => void email()}
        />
      )}
      <ResultNotice result={delivery} />
      {previewing && <ReceiptDialog id={id} isTab={isTab} onClose={() => setPreviewing(false)} />}
    </div>
  );
}
