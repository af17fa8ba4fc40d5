/**
 * Starting a tab: the check amount and the server, then the card (swiped or keyed). The amount is
 * authorized (held on the card) now and captured later with the tip. A hold refused as a possible
 * duplicate asks the cashier, as a sale does: Don't charge is the answer Enter gives.
 */
import { useEffect, useRef, useState } from 'react';
import type { TransactionRequestBody } from '../../../shared/api/schemas';
import { displayMoney, formatMoney } from '../../../shared/money';
import { useManagerApproval, type Approval } from '../manager/manager-approval';
import type { CardPayment, ChargedCard } from '../payment/card-payment';
import { cardWithHolder } from '../payment/card-text';
import { DuplicatePrompt, DuplicateRefusal } from '../payment/DuplicatePrompt';
import { isPossibleDuplicate } from '../payment/outcome';
import { useTransactionRunner } from '../payment/run-transaction';
import { useCounterPerson } from '../staff/counter-session';
import { CardAmountForm } from '../ui/CardAmountForm';
import { CardEntry } from '../ui/CardEntry';
import { ChargingPanel } from '../ui/ChargingPanel';
import { DigitsInput } from '../ui/DigitsInput';
import { OutcomePanel } from '../ui/OutcomePanel';
import { CardOutcomeActions } from '../ui/CardOutcomeActions';
import { useCardReader } from '../ui/use-card-reader';
import { ReceiptActions } from '../receipts/ReceiptActions';
import { Facts } from '../ui/Facts';

type Step =
  | { step: 'amount' }
  | { step: 'card'; mode: 'swipe' | 'keyed'; notice?: string }
  | { step: 'sent'; card: ChargedCard };

export function NewTab({
  onOpened,
  onClose,
}: {
  /** The tab is open: the list can show it while its answer is still on screen. */
  onOpened: () => void;
  onClose: (opened: boolean) => void;
}) {
  const runner = useTransactionRunner('tab');
  const { signedIn } = useCounterPerson();
  const [cents, setCents] = useState(0);
  // A new tab is the signed-in server's unless changed here.
  const [server, setServer] = useState(signedIn?.serverId ?? '');
  const [problem, setProblem] = useState<string>();
  const [step, setStep] = useState<Step>({ step: 'amount' });
  const current = useRef({ step, cents, server });
  useEffect(() => {
    current.current = { step, cents, server };
  });
  const approve = useManagerApproval();
  // A hold refused as a possible duplicate, kept (card and all) only until the cashier decides.
  const refusedAsDuplicate = useRef<TransactionRequestBody | null>(null);
  const [askingDuplicate, setAskingDuplicate] = useState(false);

  const hold = (request: TransactionRequestBody, approval?: Approval) => {
    void runner.start(request, approval).then((outcome) => {
      if (outcome?.kind === 'approved') onOpened();
      const refused = outcome !== undefined && isPossibleDuplicate(outcome) && !request.duplicate_override;
      refusedAsDuplicate.current = refused ? request : null;
      setAskingDuplicate(refused);
    });
  };

  const open = (card: ChargedCard, payment: CardPayment) => {
    const { step: now, cents: amount, server: serverId } = current.current;
    // One authorization per tab: a second swipe or tap while it is sent does nothing.
    if (now.step !== 'card') return;
    setStep({ step: 'sent', card });
    current.current = { ...current.current, step: { step: 'sent', card } };
    hold({
      type: 'AUTH',
      amount: formatMoney(amount),
      ...payment,
      ...(serverId && { server_id: serverId }),
    });
  };

  const dontHoldAgain = () => {
    refusedAsDuplicate.current = null;
    setAskingDuplicate(false);
  };

  /** The cashier confirmed a possible duplicate: the same request again, with duplicate_override. */
  const holdAgain = async () => {
    const refused = refusedAsDuplicate.current;
    if (!refused) return;
    const approval = await approve(
      'duplicate',
      refused.amount === undefined ? undefined : `$${refused.amount}`,
    );
    if (approval === null || refusedAsDuplicate.current !== refused) return;
    dontHoldAgain();
    hold({ ...refused, duplicate_override: true }, approval);
  };

  useCardReader({
    onSwipe: open,
    onFailed: (message) => {
      const now = current.current.step;
      if (now.step === 'card') setStep({ ...now, notice: message });
    },
  });

  const toCard = () => {
    if (cents === 0) {
      setProblem('Enter the check amount.');
      return;
    }
    if (server !== '' && server.length !== 2) {
      setProblem('The server number has two digits, like 07.');
      return;
    }
    setProblem(undefined);
    setStep({ step: 'card', mode: 'swipe' });
  };

  if (step.step === 'sent') {
    if (runner.state.phase !== 'done') {
      return <ChargingPanel card={step.card} title={`Opening the tab for ${displayMoney(cents)}…`} />;
    }
    const { outcome } = runner.state;
    return (
      <>
        <OutcomePanel
          outcome={outcome}
          approvedTitle="Tab opened"
          cents={cents}
          note={outcome.kind === 'approved' ? 'held on the card' : 'not held'}
          facts={
            outcome.kind === 'approved' && (
              <Facts
                facts={[
                  { label: 'Tab', value: `#${outcome.transactionId}` },
                  { label: 'Card', value: cardWithHolder(step.card) },
                  server !== '' && { label: 'Server', value: server },
                ]}
              />
            )
          }
          onCheckAgain={() =>
            void runner.checkAgain().then((again) => {
              if (again?.kind === 'approved') onOpened();
            })
          }
          message={
            isPossibleDuplicate(outcome) ? (
              <DuplicateRefusal
                duplicateOf={outcome.duplicateOf}
                card={step.card}
                className="outcome-message"
              />
            ) : undefined
          }
        >
          {outcome.kind === 'approved' && <ReceiptActions transactionId={outcome.transactionId} isTab />}
          <CardOutcomeActions
            outcome={outcome}
            onDone={() => onClose(true)}
            onTryAnotherCard={() => {
              dontHoldAgain();
              runner.reset();
              setStep({ step: 'card', mode: 'swipe' });
            }}
            onCancel={() => onClose(false)}
            cancelLabel="Cancel the tab"
          />
        </OutcomePanel>
        {askingDuplicate && isPossibleDuplicate(outcome) && (
          <DuplicatePrompt
            duplicateOf={outcome.duplicateOf}
            cents={cents}
            card={step.card}
            onChargeAgain={() => void holdAgain()}
            onCancel={dontHoldAgain}
          />
        )}
      </>
    );
  }

  if (step.step === 'card') {
    return (
      <CardEntry
        cents={cents}
        mode={step.mode}
        onMode={(mode) => setStep({ step: 'card', mode })}
        verb="Open the tab for"
        notice={step.notice}
        onKeyed={open}
        onBack={() => setStep({ step: 'amount' })}
        backLabel="Change the amount"
      />
    );
  }

  return (
    <CardAmountForm
      titleId="new-tab-title"
      title="Start a tab"
      subtitle="The check is held on the card; the tip is added at capture."
      amountLabel="Check amount"
      amountTestId="tab-amount"
      cents={cents}
      setCents={setCents}
      onTyped={() => setProblem(undefined)}
      noAmountLabel="Enter the check amount"
      problem={problem}
      onSubmit={toCard}
      onCancel={() => onClose(false)}
    >
      <label className="field">
        <span className="field-label">
          Server <span className="field-optional">two digits</span>
        </span>
        <DigitsInput
          length={2}
          placeholder="07"
          data-pad-field="Server"
          value={server}
          onDigits={(digits) => {
            setServer(digits);
            setProblem(undefined);
          }}
        />
      </label>
    </CardAmountForm>
  );
}
