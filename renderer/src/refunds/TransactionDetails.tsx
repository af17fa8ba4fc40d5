/** One transaction: what it was, what was refunded, and the void or refund the engine would accept. */
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { TransactionListItem } from '../../../shared/api/schemas';
import { displayMoney, formatMoney } from '../../../shared/money';
import { useManagerApproval } from '../manager/manager-approval';
import { useTerminal } from '../terminal/terminal-context';
import { needsAmountConfirm } from '../ui/LargeAmountConfirm';
import { amountInWords } from '../../../shared/money-words';
import { loadRefundsOf, loadTransaction } from '../transactions/queries';
import { cardLabel, centsOf, holderOf, kindOf, moneyOf, statusOf, timeLabel } from '../transactions/present';
import { useTransactionRunner, type MoneyMove } from '../payment/run-transaction';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { DigitPad } from '../ui/DigitPad';
import { DoneOrBackActions } from '../ui/DoneOrBackActions';
import { Spinner } from '../ui/icons';
import { MoneyInput } from '../ui/MoneyInput';
import { usePadTarget } from '../ui/pad-target';
import { OutcomePanel } from '../ui/OutcomePanel';
import { useLoad } from '../ui/use-load';
import { ProblemNotice } from '../ui/ProblemNotice';
import { BusyButton } from '../ui/BusyButton';
import { refundProblem, remedyFor, type Remedy } from './remedy';
import { ReprintButton } from '../receipts/ReceiptDialog';
import { ReceiptActions } from '../receipts/ReceiptActions';
import { CustomerKept } from '../receipts/CustomerKept';
import { hasCheck, tippedSaleOf, type TippedSale } from './counter-sale';
import { SaleVoidOutcome, useSaleVoid } from './sale-void';
import { Facts } from '../ui/Facts';

interface Loaded {
  item: TransactionListItem | undefined;
  openBatchId: string | undefined;
  refunds: TransactionListItem[];
  /** The sale tipped at the counter this is the capture of: voided whole, shown as the sale it is. */
  sale: TippedSale | undefined;
}

export function TransactionDetails({
  id,
  onChanged,
  onClose,
}: {
  id: string;
  onChanged: () => void;
  onClose: () => void;
}) {
  const { client } = useTerminal();
  const [refresh, setRefresh] = useState(0);
  const loaded = useLoad<Loaded>(async () => {
    const [item, open] = await Promise.all([loadTransaction(client, id), client.openBatch()]);
    // Only sales carry a refunded amount; every other type lists it empty.
    const refunds = item && centsOf(item.refunded_amount) > 0 ? await loadRefundsOf(client, item) : [];
    const sale = item ? await tippedSaleOf(client, item) : undefined;
    return { item, openBatchId: open?.id, refunds, sale };
  }, [client, id, refresh]);

  if (!loaded.data) {
    return loaded.problem ? (
      <div className="side-empty" role="alert">
        <h2>Transaction #{id}</h2>
        <p className="notice notice-bad">{loaded.problem}</p>
        <button type="button" className="button button-secondary" onClick={loaded.reload}>
          Try again
        </button>
      </div>
    ) : (
      <div className="side-empty" role="status">
        <Spinner className="spinner" />
        <p>Loading transaction #{id}…</p>
      </div>
    );
  }
  const { item, openBatchId, refunds, sale } = loaded.data;
  if (!item) {
    return (
      <div className="side-empty">
        <h2>Transaction #{id}</h2>
        <p>The engine has no transaction #{id}.</p>
      </div>
    );
  }
  return (
    <Details
      // A new remedy (after a void or a refund) starts its form afresh.
      key={`${item.id}:${item.voided}:${item.refunded_amount}:${sale?.auth.voided ?? ''}`}
      item={item}
      sale={sale}
      remedy={remedyFor(item, sale)}
      openBatchId={openBatchId}
      refunds={refunds}
      problem={loaded.problem}
      onSettled={onChanged}
      onDone={() => {
        setRefresh((count) => count + 1);
        onChanged();
      }}
      onClose={onClose}
    />
  );
}

function Details({
  item,
  sale,
  remedy,
  openBatchId,
  refunds,
  problem,
  onSettled,
  onDone,
  onClose,
}: {
  item: TransactionListItem;
  sale: TippedSale | undefined;
  remedy: Remedy;
  openBatchId: string | undefined;
  refunds: TransactionListItem[];
  problem: string | undefined;
  /**
   * A void or refund has its answer: the list beside it is read again at once, so it shows what the
   * transaction is now while the answer is still on screen.
   */
  onSettled: () => void;
  /** The answer is put away: the transaction is read again. */
  onDone: () => void;
  onClose: () => void;
}) {
  const approve = useManagerApproval();
  const { settings } = useTerminal();
  const move: MoneyMove = remedy.kind === 'refund' ? 'refund' : 'void';
  const runner = useTransactionRunner(move);
  const saleVoid = useSaleVoid(sale);
  const sending = runner.state.phase === 'sending' || saleVoid.state.phase === 'sending';
  const settled = useRef(onSettled);
  useEffect(() => {
    settled.current = onSettled;
  });
  useEffect(() => {
    if (runner.state.phase === 'done' || saleVoid.state.phase === 'done') settled.current();
  }, [runner.state, saleVoid.state]);
  const [refundCents, setRefundCents] = useState(remedy.kind === 'refund' ? remedy.remainingCents : 0);
  const [showProblem, setShowProblem] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const { attach: padPanel, onFocus: onPadFocus, typingInto, press: pressPadKey } = usePadTarget();
  // A side panel too short for the whole transaction opens scrolled to its end: the refund amount and
  // every key in view above Refund, the transaction still named at the panel's top. Once the keys say
  // where they type, their panel has its full height.
  const refundForm = useRef<HTMLFormElement>(null);
  const keysLabelled = typingInto !== undefined;
  useLayoutEffect(() => {
    const panel = refundForm.current && scrollingAncestor(refundForm.current);
    if (panel && keysLabelled) panel.scrollTop = panel.scrollHeight;
  }, [keysLabelled]);
  const status = statusOf(item);
  const holder = holderOf(item);
  const card = cardLabel(item);
  const amountCents = centsOf(item.amount);
  const tipCents = centsOf(item.tip_amount);
  const refundedCents = centsOf(item.refunded_amount);
  const name = `${kindOf(item)} #${item.id}`;
  const wrongAmount =
    remedy.kind === 'refund' ? refundProblem(refundCents, remedy.remainingCents) : undefined;
  // More than is left is said at once, and Refund offers no amount the engine would refuse.
  const overLeft = remedy.kind === 'refund' && refundCents > remedy.remainingCents;
  const problemShown = (showProblem || overLeft) && wrongAmount !== undefined;
  const batchLine =
    item.batch_id === ''
      ? 'In no batch'
      : item.batch_id === openBatchId
        ? `#${item.batch_id}, open`
        : `#${item.batch_id}, settled`;

  const ask = () => {
    if (remedy.kind === 'refund' && wrongAmount) {
      setShowProblem(true);
      return;
    }
    setConfirming(true);
  };
  const act = async () => {
    if (sale && remedy.kind === 'void-sale') {
      const allowed = await approve('void', `sale #${item.id} of ${displayMoney(amountCents)}`);
      setConfirming(false);
      if (allowed !== null) await saleVoid.start(allowed);
      return;
    }
    if (sale && remedy.kind === 'release-hold') {
      await releaseHold();
      return;
    }
    const approval = await approve(
      move,
      remedy.kind === 'refund'
        ? `${displayMoney(refundCents)} of ${kindOf(item).toLowerCase()} #${item.id}`
        : `${kindOf(item).toLowerCase()} #${item.id} of ${displayMoney(amountCents)}`,
    );
    setConfirming(false);
    if (approval === null) return;
    if (remedy.kind === 'refund') {
      await runner.start({ type: 'REFUND', id: item.id, amount: formatMoney(refundCents) }, approval);
    } else {
      await runner.start({ type: 'VOID', id: item.id }, approval);
    }
  };

  /** Voids the authorization of a sale whose charge is voided, with a manager's approval for it. */
  async function releaseHold() {
    if (!sale) return;
    const allowed = await approve(
      'void',
      `authorization #${sale.auth.id} of ${displayMoney(centsOf(sale.auth.amount))}, held for sale #${item.id}`,
    );
    setConfirming(false);
    if (allowed !== null) await saleVoid.finish(allowed);
  }

  if (sale && saleVoid.state.phase === 'done') {
    const finish = () => {
      saleVoid.reset();
      onDone();
    };
    return (
      <SaleVoidOutcome
        sale={sale}
        state={saleVoid.state}
        card={card}
        onCheckAgain={() => void saleVoid.checkAgain()}
        onFinish={() => void releaseHold()}
        onDone={finish}
      />
    );
  }

  if (runner.state.phase === 'done') {
    const { outcome } = runner.state;
    const refunding = remedy.kind === 'refund';
    // Approved or not, the transaction is read again: it shows what it is now.
    const finish = () => {
      runner.reset();
      onDone();
    };
    return (
      <OutcomePanel
        outcome={outcome}
        approvedTitle={refunding ? 'Refunded' : 'Voided'}
        cents={refunding ? refundCents : amountCents}
        note={refunding ? `to ${card}` : `${kindOf(item).toLowerCase()} #${item.id} cancelled`}
        facts={
          outcome.kind === 'approved' && (
            <Facts
              facts={[
                { label: refunding ? 'Refund' : 'Void', value: `#${outcome.transactionId}` },
                { label: 'Of', value: `${kindOf(item)} #${item.id}` },
                { label: 'Card', value: card },
              ]}
            />
          )
        }
        onCheckAgain={() => void runner.checkAgain()}
      >
        {outcome.kind === 'approved' && (
          <ReceiptActions transactionId={outcome.transactionId} isTab={false} />
        )}
        <DoneOrBackActions
          outcome={outcome}
          onDone={finish}
          onBack={finish}
          backLabel="Back to the transaction"
        />
      </OutcomePanel>
    );
  }

  return (
    <section className="details" aria-labelledby="details-title" data-testid="transaction-details">
      <header className="side-head">
        <div>
          <div className="title-with-pill">
            <h2 id="details-title">{name}</h2>
            <span className={`pill pill-${status.tone}`}>{status.label}</span>
          </div>
          <p className="panel-subtitle">{timeLabel(item.created)}</p>
        </div>
        <div className="details-head-actions">
          <ReprintButton id={Number(item.id)} isTab={hasCheck(item)} />
          <button type="button" className="button button-quiet button-small" onClick={onClose}>
            Close
          </button>
        </div>
      </header>
      <ProblemNotice problem={problem} />

      <div className="details-body side-halves">
        <div className="details-about">
          <p className="details-amount">
            {displayMoney(amountCents)}
            {tipCents > 0 && <span className="details-amount-note"> incl. {displayMoney(tipCents)} tip</span>}
          </p>

          <dl className="facts facts-grid facts-tight">
            <div>
              <dt>Card</dt>
              <dd>
                {card}
                {holder && <span className="cell-sub">{holder}</span>}
              </dd>
            </div>
            <div>
              <dt>Authorization</dt>
              <dd className="code">{item.authorization_code || '—'}</dd>
            </div>
            <div>
              <dt>Batch</dt>
              <dd>{batchLine}</dd>
            </div>
            <div>
              <dt>Invoice</dt>
              <dd>{item.invoice || '—'}</dd>
            </div>
            {item.server_id && (
              <div>
                <dt>Server</dt>
                <dd>{item.server_id}</dd>
              </div>
            )}
            {sale ? (
              <div>
                <dt>Recorded as</dt>
                <dd>Capture of auth #{sale.auth.id}, with the tip</dd>
              </div>
            ) : (
              item.original_id && (
                <div>
                  <dt>Of</dt>
                  <dd>#{item.original_id}</dd>
                </div>
              )
            )}
          </dl>

          <CustomerKept id={item.id} />

          {refundedCents === 0 && remedy.kind === 'refund' && (
            <p className="muted" data-testid="refunded-so-far">
              Nothing refunded yet ·{' '}
              <strong data-testid="refund-remaining">{displayMoney(remedy.remainingCents)} left</strong>
            </p>
          )}
          {refundedCents > 0 && (
            <div className="refund-history">
              <div className="progress" aria-hidden="true">
                <span
                  style={{ width: `${Math.min(100, (refundedCents / Math.max(amountCents, 1)) * 100)}%` }}
                />
              </div>
              <p data-testid="refunded-so-far">
                {displayMoney(refundedCents)} refunded of {displayMoney(amountCents)}
                {remedy.kind === 'refund' && (
                  <>
                    {' · '}
                    <strong data-testid="refund-remaining">{displayMoney(remedy.remainingCents)} left</strong>
                  </>
                )}
              </p>
              {refunds.length > 0 && (
                <ul className="refund-list" aria-label="Refunds">
                  {refunds.map((refund) => (
                    <li key={refund.id}>
                      <span>
                        Refund #{refund.id} · {timeLabel(refund.created)}
                      </span>
                      <span className={refund.voided === 'true' ? 'struck' : undefined}>
                        {moneyOf(refund.amount)}
                        {refund.voided === 'true' && ' (voided)'}
                      </span>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          )}
        </div>

        {remedy.kind === 'none' ? (
          <p className="note remedy-none">{remedy.reason}</p>
        ) : remedy.kind !== 'refund' ? (
          <div className="remedy">
            <p>{remedy.what}</p>
            <div className="side-actions">
              <BusyButton
                type="button"
                className="button button-danger button-large"
                onClick={ask}
                busy={sending}
              >
                {remedy.kind === 'void-sale'
                  ? `Void sale #${item.id}`
                  : remedy.kind === 'release-hold'
                    ? 'Release the hold'
                    : `Void ${kindOf(item).toLowerCase()} #${item.id}`}
              </BusyButton>
            </div>
          </div>
        ) : (
          <form
            ref={refundForm}
            className="remedy"
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              ask();
            }}
          >
            <div className="refund-amount" ref={padPanel} onFocus={onPadFocus}>
              <div className="refund-amount-fields">
                <label className="field">
                  <span className="field-label">Refund amount</span>
                  <MoneyInput
                    cents={refundCents}
                    onChange={(cents) => {
                      setRefundCents(cents);
                      setShowProblem(false);
                    }}
                    invalid={problemShown}
                    describedBy={problemShown ? 'refund-problem' : undefined}
                    className="input-money-large"
                    testId="refund-amount"
                    padField="Refund amount"
                  />
                </label>
                <button
                  type="button"
                  className="button button-secondary"
                  onClick={() => {
                    setRefundCents(remedy.remainingCents);
                    setShowProblem(false);
                  }}
                >
                  All {displayMoney(remedy.remainingCents)}
                </button>
              </div>
              <DigitPad
                label="Refund amount keys"
                variant="money"
                compact
                typingInto={typingInto}
                onKey={pressPadKey}
              />
            </div>
            <div className="side-actions">
              {/* Beside Refund, so that it is in view whenever Refund is. */}
              {problemShown && (
                <p className="field-problem" id="refund-problem" role="alert">
                  {wrongAmount}
                </p>
              )}
              <BusyButton
                type="submit"
                className="button button-danger button-large"
                busy={runner.state.phase === 'sending'}
                disabled={overLeft}
              >
                {overLeft
                  ? `Only ${displayMoney(remedy.remainingCents)} left to refund`
                  : `Refund ${displayMoney(refundCents)}`}
              </BusyButton>
            </div>
          </form>
        )}
      </div>

      {confirming && sale && (remedy.kind === 'void-sale' || remedy.kind === 'release-hold') && (
        <ConfirmDialog
          title={
            remedy.kind === 'void-sale'
              ? `Void sale #${item.id} of ${displayMoney(amountCents)}?`
              : `Release ${displayMoney(remedy.heldCents)} held on ${card}?`
          }
          confirmLabel={remedy.kind === 'void-sale' ? 'Void the sale' : 'Release the hold'}
          busy={sending}
          onConfirm={() => void act()}
          onCancel={() => setConfirming(false)}
        >
          {remedy.kind === 'void-sale' ? (
            <p data-testid="void-sale-words">
              Sale #{item.id} of <strong>{displayMoney(amountCents)}</strong> (
              {displayMoney(amountCents - tipCents)} + {displayMoney(tipCents)} tip) on {card}
              {holder && ` (${holder})`} is cancelled in full: nothing is charged and the hold on the card is
              released. This cannot be undone.
            </p>
          ) : (
            <p data-testid="void-sale-words">
              Sale #{item.id} is voided and nothing is charged. Voiding authorization #{sale.auth.id} releases
              the {displayMoney(remedy.heldCents)} still held on {card}. This cannot be undone.
            </p>
          )}
        </ConfirmDialog>
      )}
      {confirming && !(sale && (remedy.kind === 'void-sale' || remedy.kind === 'release-hold')) && (
        <ConfirmDialog
          title={
            remedy.kind === 'refund'
              ? `Refund ${displayMoney(refundCents)}?`
              : `Void ${kindOf(item).toLowerCase()} #${item.id}?`
          }
          confirmLabel={remedy.kind === 'refund' ? `Refund ${displayMoney(refundCents)}` : 'Void it'}
          busy={runner.state.phase === 'sending'}
          onConfirm={() => void act()}
          onCancel={() => setConfirming(false)}
        >
          {remedy.kind === 'refund' ? (
            <p>
              <strong>{displayMoney(refundCents)}</strong> goes back to {card}
              {holder && ` (${holder})`}, against {kindOf(item).toLowerCase()} #{item.id} of{' '}
              {displayMoney(amountCents)}. This cannot be undone once the batch is closed.
            </p>
          ) : null}
          {remedy.kind === 'refund' && needsAmountConfirm(refundCents, settings.confirmAmountAboveCents) ? (
            // A large refund is said in words too, as a large sale is.
            <p className="large-amount-words" data-testid="large-amount">
              {amountInWords(refundCents)}
            </p>
          ) : null}
          {remedy.kind === 'refund' ? null : (
            <p>
              {kindOf(item)} #{item.id} of <strong>{displayMoney(amountCents)}</strong> on {card} is cancelled
              in full
              {item.type === 'Auth' ? ' and its hold released' : ''}. This cannot be undone.
              {item.type === 'Capture' && (
                <>
                  {' '}
                  Tab #{item.original_id} goes back to <strong>Open tabs</strong> and stays held on the card:
                  capture it again there, or void the tab to release the hold.
                </>
              )}
            </p>
          )}
        </ConfirmDialog>
      )}
    </section>
  );
}

/** The nearest element around `element` that can scroll it vertically (the side panel), if any. */
function scrollingAncestor(element: HTMLElement): HTMLElement | undefined {
  for (let parent = element.parentElement; parent; parent = parent.parentElement) {
    const { overflowY } = getComputedStyle(parent);
    if (overflowY === 'auto' || overflowY === 'scroll') return parent;
  }
  return undefined;
}
