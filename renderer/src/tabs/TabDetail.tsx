/** One open tab: its check, the tip and the total, Capture; or Void to release the hold. */
import { useState } from 'react';
import type { TransactionListItem } from '../../../shared/api/schemas';
import { displayMoney, formatMoney } from '../../../shared/money';
import { useManagerApproval } from '../manager/manager-approval';
import { useTerminal } from '../terminal/terminal-context';
import { cardLabel, centsOf, counted, holderOf, timeLabel, untilLabel } from '../transactions/present';
import { useTransactionRunner } from '../payment/run-transaction';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { DoneOrBackActions } from '../ui/DoneOrBackActions';
import { ArrowRightIcon } from '../ui/icons';
import { OutcomePanel } from '../ui/OutcomePanel';
import { BusyButton } from '../ui/BusyButton';
import { ReceiptActions } from '../receipts/ReceiptActions';
import { CheckTotal } from './CheckTotal';
import { LargeTipConfirm } from './LargeTipConfirm';
import { isLargeTip } from './tip-math';
import { TipEntry } from './TipEntry';
import { Facts } from '../ui/Facts';

type Props = {
  tab: TransactionListItem;
  now: number;
  expired: boolean;
  /** changed: the tab was captured or voided, so the list must be read again. */
  onClose: (changed: boolean) => void;
  /** The tab was captured or voided: the list no longer holds it, while its answer stays here. */
  onSettled?: () => void;
};

export function TabDetail({ tab, now, expired, onClose, onSettled }: Props) {
  const { settings } = useTerminal();
  const approve = useManagerApproval();
  const capture = useTransactionRunner('capture');
  const voiding = useTransactionRunner('void');
  const [tipCents, setTipCents] = useState(0);
  const [confirmVoid, setConfirmVoid] = useState(false);
  const [confirmTip, setConfirmTip] = useState(false);
  const checkCents = centsOf(tab.amount);
  const tips = settings.tipsEnabled && !expired;
  const total = checkCents + (tips ? tipCents : 0);
  const holder = holderOf(tab);
  const busy = capture.state.phase === 'sending' || voiding.state.phase === 'sending';

  const askCapture = () => {
    if (busy || expired) return;
    if (tips && isLargeTip(checkCents, tipCents, settings.tipWarnPercent)) setConfirmTip(true);
    else doCapture();
  };

  const doCapture = () => {
    setConfirmTip(false);
    if (busy || expired) return;
    void capture
      .start({
        type: 'CAPTURE',
        id: tab.id,
        amount: tab.amount,
        ...(tips && tipCents > 0 && { tip_amount: formatMoney(tipCents) }),
      })
      .then((outcome) => {
        if (outcome?.kind === 'approved') onSettled?.();
      });
  };

  const doVoid = async () => {
    const approval = await approve('void', `tab #${tab.id} of ${displayMoney(checkCents)}`);
    setConfirmVoid(false);
    if (approval === null) return;
    const outcome = await voiding.start({ type: 'VOID', id: tab.id }, approval);
    if (outcome?.kind === 'approved') onSettled?.();
  };

  const who = `${cardLabel(tab)}${holder ? ` · ${holder}` : ''}`;

  if (capture.state.phase === 'done') {
    const { outcome } = capture.state;
    return (
      <OutcomePanel
        outcome={outcome}
        approvedTitle="Tab captured"
        cents={total}
        note={
          tips && tipCents > 0 ? `${displayMoney(checkCents)} + ${displayMoney(tipCents)} tip` : undefined
        }
        facts={
          outcome.kind === 'approved' && (
            <Facts
              facts={[
                { label: 'Authorization code', value: outcome.authorizationCode, className: 'code' },
                { label: 'Capture', value: `#${outcome.transactionId}` },
                { label: 'Card', value: who },
              ]}
            />
          )
        }
        onCheckAgain={() => void capture.checkAgain()}
      >
        {outcome.kind === 'approved' && (
          <ReceiptActions transactionId={outcome.transactionId} isTab={false} />
        )}
        <DoneOrBackActions
          outcome={outcome}
          onDone={() => onClose(true)}
          onBack={capture.reset}
          backLabel="Back to the tab"
        />
      </OutcomePanel>
    );
  }

  if (voiding.state.phase === 'done') {
    const { outcome } = voiding.state;
    return (
      <OutcomePanel
        outcome={outcome}
        approvedTitle="Tab voided"
        cents={checkCents}
        note={outcome.kind === 'approved' ? 'hold released' : 'still held'}
        facts={<p className="outcome-message">The hold on {who} is released. Nothing was charged.</p>}
        onCheckAgain={() => void voiding.checkAgain()}
      >
        <DoneOrBackActions
          outcome={outcome}
          onDone={() => onClose(true)}
          onBack={voiding.reset}
          backLabel="Back to the tab"
        />
      </OutcomePanel>
    );
  }

  return (
    <section
      className="tab-detail"
      aria-labelledby="tab-detail-title"
      data-testid="tab-detail"
      onKeyDown={(event) => {
        if (event.key === 'Escape' && !busy) {
          event.preventDefault();
          onClose(false);
        }
      }}
    >
      <header className="side-head">
        <div>
          <h2 id="tab-detail-title">
            Tab #{tab.id} · {displayMoney(checkCents)}
          </h2>
          <p className="panel-subtitle">{who}</p>
          <p className="panel-subtitle tab-detail-times">
            {tab.server_id ? `Server ${tab.server_id} · ` : ''}opened {timeLabel(tab.created)} ·{' '}
            {expired ? `expired ${timeLabel(tab.expires)}` : `capture ${untilLabel(tab.expires, now)}`}
          </p>
        </div>
        <button type="button" className="button button-quiet button-small" onClick={() => onClose(false)}>
          Close
        </button>
      </header>

      {expired ? (
        <p className="notice notice-bad">
          This tab is older than {counted(settings.authExpiryDays, 'day')} and can no longer be captured. Void
          it to release the hold, and run a new sale for the check.
        </p>
      ) : tips ? (
        <TipEntry
          checkCents={checkCents}
          tipCents={tipCents}
          onTip={setTipCents}
          percentages={settings.tipPercentages}
          onEnter={askCapture}
          autoFocus
        />
      ) : (
        <p className="note">
          Tips are off, so this tab is captured for its check alone. A manager can turn tips on in Settings.
        </p>
      )}

      <div className="side-actions side-actions-row">
        <CheckTotal checkCents={checkCents} tipCents={tips ? tipCents : undefined} />
        <button
          type="button"
          className="button button-danger-quiet"
          onClick={() => setConfirmVoid(true)}
          disabled={busy}
        >
          Void tab
        </button>
        {!expired && (
          <BusyButton
            type="button"
            className="button button-primary button-large"
            onClick={askCapture}
            busy={capture.state.phase === 'sending'}
            // A void on its way holds the capture back too.
            disabled={busy}
            autoFocus={!tips}
          >
            Capture {displayMoney(total)}
            <ArrowRightIcon className="button-icon" />
          </BusyButton>
        )}
      </div>

      {confirmTip && (
        <LargeTipConfirm
          tips={[{ tabId: tab.id, checkCents, tipCents }]}
          warnPercent={settings.tipWarnPercent}
          confirmLabel={`Capture ${displayMoney(total)}`}
          onConfirm={doCapture}
          onCancel={() => setConfirmTip(false)}
        />
      )}

      {confirmVoid && (
        <ConfirmDialog
          title={`Void tab #${tab.id}?`}
          confirmLabel="Void tab"
          busy={voiding.state.phase === 'sending'}
          onConfirm={() => void doVoid()}
          onCancel={() => setConfirmVoid(false)}
        >
          <p>
            The hold of <strong>{displayMoney(checkCents)}</strong> on {who} is released and the tab can no
            longer be captured. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
