/**
 * Adjust tip on a captured tab while its batch is open: one action that voids the capture and
 * captures the tab again with the new tip, each step with its own Idempotency-Key. The card's hold
 * stays until the tab itself is voided, so the second capture needs no card. If it fails, the tab is
 * open again with its hold and the screen says so: it is never lost. A tab whose hold has expired
 * cannot be captured again, so its capture is never voided here: the tip stays as it is.
 */
import { useEffect, useRef, useState } from 'react';
import type { TransactionListItem } from '../../../shared/api/schemas';
import { authorizationExpiresAt, isAuthorizationExpired } from '../../../shared/authorization';
import { displayMoney, formatMoney } from '../../../shared/money';
import { useManagerApproval } from '../manager/manager-approval';
import { useTransactionRunner } from '../payment/run-transaction';
import { useTerminal } from '../terminal/terminal-context';
import { cardLabel, centsOf, holderOf, timeLabel } from '../transactions/present';
import { BusyButton } from '../ui/BusyButton';
import { DoneOrBackActions } from '../ui/DoneOrBackActions';
import { OutcomePanel } from '../ui/OutcomePanel';
import { ReceiptActions } from '../receipts/ReceiptActions';
import { CheckTotal } from './CheckTotal';
import { LargeTipConfirm } from './LargeTipConfirm';
import { isLargeTip } from './tip-math';
import { TipEntry } from './TipEntry';
import { Facts } from '../ui/Facts';

type Props = {
  capture: TransactionListItem;
  /**
   * A step has its answer: the lists are read again at once, so Captured in this batch shows the new
   * tip (or the tab back among the open ones) while the answer is still on screen.
   */
  onSettled: () => void;
  /** changed: the capture was voided, so the lists must be read again. */
  onClose: (changed: boolean) => void;
};

export function AdjustTip({ capture, onSettled, onClose }: Props) {
  const { client, settings } = useTerminal();
  const approve = useManagerApproval();
  const voiding = useTransactionRunner('void');
  const recapture = useTransactionRunner('capture');
  const checkCents = centsOf(capture.amount) - centsOf(capture.tip_amount);
  const oldTip = centsOf(capture.tip_amount);
  const [tipCents, setTipCents] = useState(oldTip);
  const [confirmTip, setConfirmTip] = useState(false);
  const tabId = capture.original_id;
  const who = `${cardLabel(capture)}${holderOf(capture) ? ` · ${holderOf(capture)}` : ''}`;
  const busy = voiding.state.phase === 'sending' || recapture.state.phase === 'sending';
  const settled = useRef(onSettled);
  useEffect(() => {
    settled.current = onSettled;
  });
  /** When the tab's hold expired, once found to have: the engine would refuse a new capture. */
  const [holdExpiredAt, setHoldExpiredAt] = useState<string | undefined>();
  const holdExpired = async (): Promise<boolean> => {
    const [tab] = await client.listTransactions({ id: tabId });
    if (!tab) return false;
    const opened = { createdAt: Date.parse(tab.created) };
    if (!isAuthorizationExpired(opened, settings.authExpiryDays, Date.now())) return false;
    setHoldExpiredAt(new Date(authorizationExpiresAt(opened, settings.authExpiryDays)).toISOString());
    return true;
  };
  const checkHold = useRef(holdExpired);
  useEffect(() => {
    checkHold.current().catch(() => undefined);
  }, []);
  useEffect(() => {
    if (voiding.state.phase === 'done' || recapture.state.phase === 'done') settled.current();
  }, [voiding.state, recapture.state]);

  const captureAgain = () =>
    recapture.start({
      type: 'CAPTURE',
      id: tabId,
      amount: formatMoney(checkCents),
      ...(tipCents > 0 && { tip_amount: formatMoney(tipCents) }),
      ...(capture.server_id && { server_id: capture.server_id }),
    });

  const adjust = async () => {
    setConfirmTip(false);
    if (busy) return;
    // Read again at the moment of adjusting: the hold may have expired since the panel opened.
    if (await holdExpired().catch(() => false)) return;
    const approval = await approve(
      'void',
      `capture #${capture.id}, to change its tip from ${displayMoney(oldTip)} to ${displayMoney(tipCents)}`,
    );
    if (approval === null) return;
    // A manager may come over only after the hold has ended: read once more before the void.
    if (await holdExpired().catch(() => false)) return;
    const voided = await voiding.start({ type: 'VOID', id: capture.id }, approval);
    if (voided?.kind === 'approved') await captureAgain();
  };

  const ask = () => {
    if (busy || tipCents === oldTip) return;
    if (isLargeTip(checkCents, tipCents, settings.tipWarnPercent)) setConfirmTip(true);
    else void adjust();
  };

  // The old capture is voided: the answer to the new capture decides what the cashier sees.
  if (voiding.state.phase === 'done' && voiding.state.outcome.kind === 'approved') {
    const second = recapture.state;
    if (second.phase !== 'done') {
      return (
        <p className="side-status" role="status">
          Capturing tab #{tabId} with the new tip…
        </p>
      );
    }
    const { outcome } = second;
    const adjusted = outcome.kind === 'approved';
    return (
      <OutcomePanel
        outcome={outcome}
        approvedTitle="Tip adjusted"
        cents={checkCents + tipCents}
        note={`${displayMoney(checkCents)} + ${displayMoney(tipCents)} tip`}
        facts={
          <Facts
            facts={[
              { label: 'New capture', value: adjusted ? `#${outcome.transactionId}` : '—' },
              { label: 'Voided capture', value: `#${capture.id}` },
              { label: 'Card', value: who },
            ]}
          />
        }
        onCheckAgain={() => void recapture.checkAgain()}
      >
        {!adjusted && outcome.kind !== 'unknown' && (
          <p className="notice notice-warn" data-testid="tab-open-again">
            The old capture of {displayMoney(centsOf(capture.amount))} is voided, and tab #{tabId} is open
            again with its hold on {who}. Capture it from Open tabs with the right tip.
          </p>
        )}
        {adjusted && <ReceiptActions transactionId={outcome.transactionId} isTab={false} />}
        {outcome.kind !== 'unknown' && (
          <button type="button" className="button button-primary" onClick={() => onClose(true)} autoFocus>
            {adjusted ? 'Done' : 'Go to the open tab'}
          </button>
        )}
      </OutcomePanel>
    );
  }

  if (voiding.state.phase === 'done') {
    const { outcome } = voiding.state;
    return (
      <OutcomePanel
        outcome={outcome}
        approvedTitle="Capture voided"
        cents={centsOf(capture.amount)}
        note="tip not changed"
        onCheckAgain={() =>
          void voiding.checkAgain().then((again) => {
            if (again?.kind === 'approved') void captureAgain();
          })
        }
      >
        <DoneOrBackActions
          outcome={outcome}
          onDone={() => onClose(true)}
          onBack={voiding.reset}
          backLabel="Back to the tip"
        />
      </OutcomePanel>
    );
  }

  return (
    <section className="tab-detail" aria-labelledby="adjust-tip-title" data-testid="adjust-tip">
      <header className="side-head">
        <div>
          <h2 id="adjust-tip-title">Adjust tip · tab #{tabId}</h2>
          <p className="panel-subtitle">{who}</p>
          <p className="panel-subtitle">
            Captured as #{capture.id}: {displayMoney(checkCents)} + {displayMoney(oldTip)} tip
          </p>
          {holdExpiredAt === undefined && (
            // In the panel's head, which stays in view however far the tip's keys scroll.
            <p className="panel-subtitle">
              The capture is voided and the tab captured again: the card is not needed.
            </p>
          )}
        </div>
        <button
          type="button"
          className="button button-quiet button-small"
          onClick={() => onClose(false)}
          disabled={busy}
        >
          Close
        </button>
      </header>

      {holdExpiredAt !== undefined ? (
        <p className="notice notice-warn" data-testid="hold-expired">
          The hold on tab #{tabId} expired {timeLabel(holdExpiredAt)}, so it cannot be captured again: its tip
          can no longer be changed, and the capture of {displayMoney(centsOf(capture.amount))} stands. After
          the batch closes, part of it can be refunded.
        </p>
      ) : (
        <TipEntry
          checkCents={checkCents}
          tipCents={tipCents}
          onTip={setTipCents}
          percentages={settings.tipPercentages}
          onEnter={ask}
          autoFocus
        />
      )}

      <div className="side-actions side-actions-row">
        <CheckTotal checkCents={checkCents} tipCents={tipCents} />
        <BusyButton
          type="button"
          className="button button-primary button-large"
          onClick={ask}
          busy={busy}
          disabled={busy || tipCents === oldTip || holdExpiredAt !== undefined}
        >
          Adjust tip to {displayMoney(tipCents)}
        </BusyButton>
      </div>

      {confirmTip && (
        <LargeTipConfirm
          tips={[{ tabId, checkCents, tipCents }]}
          warnPercent={settings.tipWarnPercent}
          confirmLabel={`Adjust to ${displayMoney(checkCents + tipCents)}`}
          onConfirm={() => void adjust()}
          onCancel={() => setConfirmTip(false)}
        />
      )}
    </section>
  );
}
