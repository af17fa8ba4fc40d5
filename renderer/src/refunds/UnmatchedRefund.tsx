/**
 * A refund with no original sale: money goes to a card the engine has no record of, with no limit,
 * so the card is taken first and the refund is sent only after a confirmation naming the amount and
 * the card (and the manager PIN, when one is set).
 */
import { useEffect, useRef, useState } from 'react';
import { displayMoney, formatMoney } from '../../../shared/money';
import { useManagerApproval } from '../manager/manager-approval';
import type { CardPayment, ChargedCard } from '../payment/card-payment';
import { cardName, cardholderOf, cardWithHolder } from '../payment/card-text';
import { useTransactionRunner } from '../payment/run-transaction';
import { CardAmountForm } from '../ui/CardAmountForm';
import { CardEntry } from '../ui/CardEntry';
import { ChargingPanel } from '../ui/ChargingPanel';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { ReceiptActions } from '../receipts/ReceiptActions';
import { OutcomePanel } from '../ui/OutcomePanel';
import { CardOutcomeActions } from '../ui/CardOutcomeActions';
import { useCardReader } from '../ui/use-card-reader';
import { Facts } from '../ui/Facts';

type Step =
  | { step: 'amount' }
  | { step: 'card'; mode: 'swipe' | 'keyed'; notice?: string }
  /** The card is read and held here, unsent, until the refund is confirmed. */
  | { step: 'confirm'; card: ChargedCard; payment: CardPayment; mode: 'swipe' | 'keyed' }
  | { step: 'sent'; card: ChargedCard };

export function UnmatchedRefund({ onClose }: { onClose: (refunded: boolean) => void }) {
  const approve = useManagerApproval();
  const runner = useTransactionRunner('refund');
  const [cents, setCents] = useState(0);
  const [invoice, setInvoice] = useState('');
  const [problem, setProblem] = useState<string>();
  const [step, setStep] = useState<Step>({ step: 'amount' });
  const current = useRef(step);
  useEffect(() => {
    current.current = step;
  });

  useCardReader({
    onSwipe: (card, payment) => {
      const now = current.current;
      if (now.step !== 'card') return;
      const next: Step = { step: 'confirm', mode: now.mode, card, payment };
      current.current = next;
      setStep(next);
    },
    onFailed: (message) => {
      const now = current.current;
      if (now.step === 'card') setStep({ ...now, notice: message });
    },
  });

  const refund = async () => {
    const now = current.current;
    if (now.step !== 'confirm') return;
    const approval = await approve('refund', `${displayMoney(cents)}, with no sale`);
    if (approval === null) return;
    current.current = { step: 'sent', card: now.card };
    setStep({ step: 'sent', card: now.card });
    await runner.start(
      {
        type: 'REFUND',
        amount: formatMoney(cents),
        ...now.payment,
        ...(invoice.trim() && { invoice: invoice.trim() }),
      },
      approval,
    );
  };

  if (step.step === 'sent') {
    if (runner.state.phase !== 'done') {
      return <ChargingPanel card={step.card} title={`Refunding ${displayMoney(cents)}…`} />;
    }
    const { outcome } = runner.state;
    return (
      <OutcomePanel
        outcome={outcome}
        approvedTitle="Refunded"
        cents={cents}
        note={`to ${cardName(step.card)}`}
        facts={
          outcome.kind === 'approved' && (
            <Facts
              facts={[
                { label: 'Refund', value: `#${outcome.transactionId}` },
                { label: 'Card', value: cardWithHolder(step.card) },
              ]}
            />
          )
        }
        onCheckAgain={() => void runner.checkAgain()}
      >
        {outcome.kind === 'approved' && (
          <ReceiptActions transactionId={outcome.transactionId} isTab={false} />
        )}
        <CardOutcomeActions
          outcome={outcome}
          onDone={() => onClose(true)}
          onTryAnotherCard={() => {
            runner.reset();
            setStep({ step: 'card', mode: 'swipe' });
          }}
          onCancel={() => onClose(false)}
          cancelLabel="Cancel the refund"
        />
      </OutcomePanel>
    );
  }

  if (step.step === 'card' || step.step === 'confirm') {
    return (
      <>
        <CardEntry
          cents={cents}
          mode={step.mode}
          onMode={(mode) => setStep({ step: 'card', mode })}
          verb="Refund"
          notice={step.step === 'card' ? step.notice : undefined}
          onKeyed={(card, payment) => setStep({ step: 'confirm', card, payment, mode: 'keyed' })}
          onBack={() => setStep({ step: 'amount' })}
          backLabel="Change the amount"
        />
        {step.step === 'confirm' && (
          <ConfirmDialog
            title={`Refund ${displayMoney(cents)} with no sale?`}
            confirmLabel={`Refund ${displayMoney(cents)}`}
            onConfirm={() => void refund()}
            onCancel={() => setStep({ step: 'card', mode: step.mode })}
          >
            <p>
              <strong>{displayMoney(cents)}</strong> goes to {cardName(step.card)}
              {cardholderOf(step.card) && ` (${cardholderOf(step.card)})`}. There is no original sale to check
              it against: make sure the customer is owed this amount.
            </p>
          </ConfirmDialog>
        )}
      </>
    );
  }

  return (
    <CardAmountForm
      titleId="unmatched-title"
      title="Refund without a sale"
      subtitle="Credits a card with no original sale on this terminal."
      amountLabel="Amount to refund"
      amountTestId="unmatched-amount"
      cents={cents}
      setCents={setCents}
      onTyped={() => setProblem(undefined)}
      noAmountLabel="Enter the amount"
      problem={problem}
      onSubmit={() => {
        if (cents === 0) {
          setProblem('Enter the amount to refund.');
          return;
        }
        setStep({ step: 'card', mode: 'swipe' });
      }}
      onCancel={() => onClose(false)}
    >
      <label className="field">
        <span className="field-label">
          Invoice <span className="field-optional">optional</span>
        </span>
        <input
          className="input"
          autoComplete="off"
          maxLength={64}
          value={invoice}
          onChange={(event) => setInvoice(event.target.value)}
        />
      </label>
    </CardAmountForm>
  );
}
