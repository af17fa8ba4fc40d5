/**
 * Any transaction's receipt on screen, then on paper or by email: the copy to show (the customer's,
 * the merchant's to sign, the check of a tab), **Print** and **Email receipt**. Reprints come here
 * from History and the transaction details.
 */
import { useEffect, useState } from 'react';
import type { ReceiptCopyName, ReceiptPreview } from '../../../shared/ipc/contract';
import { useTerminal } from '../terminal/terminal-context';
import { BusyButton } from '../ui/BusyButton';
import { Dialog } from '../ui/Dialog';
import { ResultNotice } from '../ui/ResultNotice';
import { ReceiptEmailForm } from './ReceiptEmailForm';
import { ReceiptPaper } from './ReceiptPreview';
import { emailReceipt, messageOf, printCopies, type Delivery } from './receipt-requests';

const COPY_LABELS: Record<ReceiptCopyName, string> = {
  customer: 'Customer copy',
  merchant: 'Merchant copy',
  check: 'Check',
};

export function ReceiptDialog({
  id,
  isTab,
  initialCopy = isTab ? 'check' : 'customer',
  onClose,
}: {
  id: number;
  /** An AUTH: its check, with the tip lines, can be printed too. */
  isTab: boolean;
  initialCopy?: ReceiptCopyName;
  onClose: () => void;
}) {
  const { bridge, session } = useTerminal();
  const [copy, setCopy] = useState<ReceiptCopyName>(initialCopy);
  const [preview, setPreview] = useState<ReceiptPreview>();
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState<'print' | 'email' | 'pdf'>();
  const [delivery, setDelivery] = useState<Delivery>();
  const [emailing, setEmailing] = useState(false);
  const [address, setAddress] = useState('');

  useEffect(() => {
    let current = true;
    bridge.invoke('receipts:preview', { id, copy }).then(
      (shown) => {
        if (current) {
          setPreview(shown);
          setProblem(undefined);
        }
      },
      (error: unknown) => {
        if (current) setProblem(messageOf(error));
      },
    );
    return () => {
      current = false;
    };
  }, [bridge, id, copy]);

  const copies: ReceiptCopyName[] = isTab ? ['check', 'customer', 'merchant'] : ['customer', 'merchant'];
  const print = async () => {
    setBusy('print');
    setDelivery(await printCopies(bridge, id, [copy]));
    setBusy(undefined);
  };
  const email = async () => {
    setBusy('email');
    setDelivery(await emailReceipt(bridge, id, address));
    setBusy(undefined);
  };
  // The desktop app writes the shown receipt to a PDF file; a browser's print dialog offers Save as PDF.
  const savePdf = async () => {
    setBusy('pdf');
    try {
      const { saved } = await bridge.invoke('report:save-pdf', { fileName: `Tender receipt ${id}.pdf` });
      if (saved) setDelivery({ ok: true, message: 'PDF saved.' });
    } catch (error) {
      setDelivery({ ok: false, message: messageOf(error) });
    }
    setBusy(undefined);
  };

  return (
    <Dialog
      title={`Receipt for #${id}`}
      onCancel={onClose}
      busy={busy !== undefined}
      className="dialog-receipt"
      testId="receipt-dialog"
    >
      {/* The answer screen's keys (N, T, Enter) stay with this dialog while it is open. */}
      <div className="receipt-dialog" onKeyDown={(event) => event.stopPropagation()}>
        <div className="segmented" role="radiogroup" aria-label="Copy">
          {copies.map((choice) => (
            <button
              key={choice}
              type="button"
              role="radio"
              aria-checked={copy === choice}
              className="segmented-option"
              onClick={() => {
                setCopy(choice);
                setDelivery(undefined);
              }}
            >
              {COPY_LABELS[choice]}
            </button>
          ))}
        </div>
        {problem ? (
          <p className="notice notice-bad" role="alert">
            {problem}
          </p>
        ) : preview ? (
          <ReceiptPaper preview={preview} />
        ) : (
          <p className="muted" role="status">
            Preparing the receipt…
          </p>
        )}
        <ResultNotice result={delivery} />
        {emailing && (
          <ReceiptEmailForm
            address={address}
            onAddress={setAddress}
            sending={busy === 'email'}
            onSend={() => void email()}
            inDialog
          />
        )}
        <div className="dialog-actions">
          <button
            type="button"
            className="button button-quiet"
            onClick={onClose}
            disabled={busy !== undefined}
          >
            Close
          </button>
          {session.shell === 'desktop' ? (
            <BusyButton
              type="button"
              className="button button-quiet"
              busy={busy === 'pdf'}
              disabled={preview === undefined}
              onClick={() => void savePdf()}
            >
              Save as PDF
            </BusyButton>
          ) : (
            <button
              type="button"
              className="button button-quiet"
              disabled={preview === undefined}
              onClick={() => window.print()}
            >
              PDF or office printer
            </button>
          )}
          {!emailing && (
            <button type="button" className="button button-secondary" onClick={() => setEmailing(true)}>
              Email receipt
            </button>
          )}
          <BusyButton
            type="button"
            className="button button-primary"
            busy={busy === 'print'}
            disabled={preview === undefined}
            onClick={() => void print()}
          >
            Print {COPY_LABELS[copy].toLowerCase()}
          </BusyButton>
        </div>
      </div>
    </Dialog>
  );
}

/** **Reprint**: opens the receipt of a transaction from a list or its details. */
export function ReprintButton({ id, isTab, className }: { id: number; isTab: boolean; className?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className={className ?? 'button button-secondary receipt-reprint'}
        onClick={() => setOpen(true)}
        aria-label={`Reprint the receipt of #${id}`}
      >
        Reprint
      </button>
      {open && <ReceiptDialog id={id} isTab={isTab} onClose={() => setOpen(false)} />}
    </>
  );
}
