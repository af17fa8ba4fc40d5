/**
 * Voiding a sale tipped at the counter. The customer made one sale, recorded as an AUTH of the total
 * captured at once with the tip; voiding it voids both: the capture first (the engine voids no AUTH
 * whose capture stands), then the authorization, which releases the hold. A void of the capture
 * alone would leave the total held on the customer's card as a tab nobody opened.
 *
 * One manager approval covers the cashier's one action: the host checks it again for each of the
 * two voids, which go one after the other, each with its own request key. Should the first go
 * through and the second not, the answer says that nothing is charged but the card still holds the
 * total, and offers to finish.
 */
import { useCallback, useRef, useState } from 'react';
import { displayMoney } from '../../../shared/money';
import type { Approval } from '../manager/manager-approval';
import { outcomeTitle, type SaleOutcome } from '../payment/outcome';
import { prepareTransaction, useIdempotentSender } from '../payment/run-transaction';
import { ReceiptActions } from '../receipts/ReceiptActions';
import { centsOf } from '../transactions/present';
import { OutcomeIcon } from '../ui/OutcomePanel';
import type { TippedSale } from './counter-sale';
import { Facts } from '../ui/Facts';

type Stage = 'capture' | 'auth';

export type SaleVoidState =
  | { phase: 'idle' }
  | { phase: 'sending'; stage: Stage }
  /**
   * The last answer and the step it answers. An approved capture void always goes on to the
   * authorization, so a done capture step is one that did not go through (or whose answer is lost).
   */
  | { phase: 'done'; stage: Stage; outcome: SaleOutcome; captureVoidId: string | undefined };

/** The two voids of a tipped counter sale, one after the other, and Check again after no answer. */
export function useSaleVoid(sale: TippedSale | undefined) {
  const { send, forget } = useIdempotentSender('void');
  const [state, setState] = useState<SaleVoidState>({ phase: 'idle' });
  const approval = useRef<Approval>(null);
  const captureVoidId = useRef<string>(undefined);

  const settle = useCallback(
    async (stage: Stage, outcome: SaleOutcome): Promise<void> => {
      if (stage === 'capture' && outcome.kind === 'approved' && sale) {
        captureVoidId.current = outcome.transactionId;
        stage = 'auth';
        setState({ phase: 'sending', stage });
        const answer = send(prepareTransaction({ type: 'VOID', id: sale.auth.id }, approval.current));
        // Nothing else is sent from this panel meanwhile; should the gate be closed all the same, the
        // answer says what stands and offers to finish.
        outcome = answer
          ? await answer
          : {
              kind: 'refused',
              status: 409,
              message: 'The screen was busy with another request.',
              nextStep: '',
            };
      }
      setState({ phase: 'done', stage, outcome, captureVoidId: captureVoidId.current });
    },
    [sale, send],
  );

  /** Voids the sale: its capture, then its authorization, with the manager's one approval. */
  const start = useCallback(
    async (allowed: Approval) => {
      if (!sale) return;
      approval.current = allowed;
      captureVoidId.current = undefined;
      const answer = send(prepareTransaction({ type: 'VOID', id: sale.capture.id }, allowed));
      if (!answer) return;
      setState({ phase: 'sending', stage: 'capture' });
      await settle('capture', await answer);
    },
    [sale, send, settle],
  );

  /** Voids the authorization of a sale whose capture is voided already: the rest of the void. */
  const finish = useCallback(
    async (allowed: Approval) => {
      if (!sale) return;
      approval.current = allowed;
      const answer = send(prepareTransaction({ type: 'VOID', id: sale.auth.id }, allowed));
      if (!answer) return;
      setState({ phase: 'sending', stage: 'auth' });
      await settle('auth', await answer);
    },
    [sale, send, settle],
  );

  /** Sends the void whose answer was lost again, with its key, and goes on from its answer. */
  const checkAgain = useCallback(async () => {
    if (state.phase !== 'done') return;
    const answer = send();
    if (!answer) return;
    setState({ phase: 'sending', stage: state.stage });
    await settle(state.stage, await answer);
  }, [send, settle, state]);

  const reset = useCallback(() => {
    if (forget()) setState({ phase: 'idle' });
  }, [forget]);

  return { state, start, finish, checkAgain, reset };
}

/** The answer to the void of a tipped counter sale: what is charged and what is held now, in words. */
export function SaleVoidOutcome({
  sale,
  state,
  card,
  onCheckAgain,
  onFinish,
  onDone,
}: {
  sale: TippedSale;
  state: Extract<SaleVoidState, { phase: 'done' }>;
  card: string;
  onCheckAgain: () => void;
  /** Voids the authorization still holding the total. */
  onFinish: () => void;
  onDone: () => void;
}) {
  const { outcome, stage, captureVoidId } = state;
  const totalCents = centsOf(sale.auth.amount);
  const total = displayMoney(totalCents);
  const saleName = `sale #${sale.capture.id}`;
  const authName = `authorization #${sale.auth.id}`;

  if (stage === 'auth' && outcome.kind === 'approved') {
    return (
      <section
        className="outcome outcome-good"
        role="status"
        aria-labelledby="outcome-title"
        data-testid="outcome"
        data-outcome="approved"
        data-sale-void="voided"
        data-answer
      >
        <div className="outcome-badge" aria-hidden="true">
          <OutcomeIcon kind="approved" />
        </div>
        <h2 className="outcome-title" id="outcome-title">
          Sale voided
        </h2>
        <p className="outcome-summary">
          <span className="outcome-amount">{total}</span>
          <span className="outcome-note">nothing charged, hold on the card released</span>
        </p>
        <Facts
          facts={[
            { label: 'Sale', value: `#${sale.capture.id}` },
            {
              label: 'Voids',
              value: `${captureVoidId ? `#${captureVoidId} (the charge), ` : ''}#${outcome.transactionId} (the hold)`,
            },
            { label: 'Card', value: card },
          ]}
        />
        <div className="outcome-actions" data-answer-actions>
          <ReceiptActions transactionId={captureVoidId ?? outcome.transactionId} isTab={false} />
          <button type="button" className="button button-primary" onClick={onDone} autoFocus>
            Done
          </button>
        </div>
      </section>
    );
  }

  const unknown = outcome.kind === 'unknown';
  const message = outcome.kind === 'approved' ? '' : outcome.message;
  let title: string;
  let note: string;
  let said: string;
  let nextStep: string;
  let holdRemains = false;
  if (stage === 'capture') {
    title = outcomeTitle(outcome);
    note = unknown ? 'not known yet' : 'nothing voided';
    said = message;
    nextStep =
      outcome.kind === 'approved'
        ? ''
        : unknown
          ? `It may or may not have been voided: the charge first, then the hold. Press Check again: the engine answers for this same request, and never does it twice.`
          : `${saleName} stands as it was: ${total} charged to ${card}. ${outcome.nextStep ?? ''}`.trim();
  } else {
    holdRemains = !unknown;
    const charge = captureVoidId
      ? `The charge of ${saleName} is voided (void #${captureVoidId}): nothing is charged.`
      : `The charge of ${saleName} is voided: nothing is charged.`;
    title = unknown ? 'Hold release not known' : 'Hold not released';
    note = unknown ? `maybe still held on ${card}` : `still held on ${card}`;
    said = unknown
      ? `${charge} Whether the ${total} held on ${card} as ${authName} was released is not known: ${message}`
      : `${charge} But ${card} still holds ${total} as ${authName}, whose void did not go through: ${message}`;
    nextStep = unknown
      ? `Press Check again: it sends the same void of ${authName}, which the engine never does twice.`
      : `Press Void ${authName} to release the hold. Until then the hold is listed under Tabs as an open tab.`;
  }
  const tone = unknown || outcome.kind === 'rejected' || holdRemains ? 'warn' : 'bad';
  return (
    <section
      className={`outcome outcome-${tone}`}
      role="alert"
      aria-labelledby="outcome-title"
      data-testid="outcome"
      data-outcome={outcome.kind}
      data-sale-void={stage === 'capture' ? 'not-voided' : 'hold-remains'}
      data-answer
    >
      <div className="outcome-badge" aria-hidden="true">
        <OutcomeIcon kind={outcome.kind} />
      </div>
      <h2 className="outcome-title" id="outcome-title">
        {title}
      </h2>
      <p className="outcome-summary">
        <span className="outcome-amount">{total}</span>
        <span className="outcome-note">{note}</span>
      </p>
      <div className="outcome-explanation">
        <p className="outcome-message" data-testid="outcome-message">
          {said}
        </p>
        {nextStep && (
          <p className="outcome-next">
            <strong>What to do: </strong>
            {nextStep}
          </p>
        )}
      </div>
      <div className="outcome-actions" data-answer-actions>
        {unknown ? (
          <button type="button" className="button button-primary" onClick={onCheckAgain} data-autofocus>
            Check again
          </button>
        ) : (
          <>
            {holdRemains && (
              <button type="button" className="button button-danger" onClick={onFinish} autoFocus>
                Void {authName}
              </button>
            )}
            <button
              type="button"
              className="button button-secondary"
              onClick={onDone}
              autoFocus={!holdRemains}
            >
              Back to the sale
            </button>
          </>
        )}
      </div>
    </section>
  );
}
