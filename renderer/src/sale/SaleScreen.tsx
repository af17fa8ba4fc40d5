/**
 * One sale at the counter: type the amount, take the card (swipe, or key it in), see the answer,
 * start the next. Works by touch and by keyboard alone, and never has two charges in flight.
 */
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import type { TransactionRequestBody } from '../../../shared/api/schemas';
import { displayMoney, formatMoney } from '../../../shared/money';
import { useManagerApproval } from '../manager/manager-approval';
import { DuplicatePrompt } from '../payment/DuplicatePrompt';
import { isPossibleDuplicate, nextAction, type SaleOutcome } from '../payment/outcome';
import { useScreenActiveRef } from '../ui/screen-active';
import { STEP_PAUSE_MS } from '../ui/step-pause';
import { useTerminal } from '../terminal/terminal-context';
import { useCounterPerson } from '../staff/counter-session';
import { LargeAmountConfirm, needsAmountConfirm } from '../ui/LargeAmountConfirm';
import { useCardReader } from '../ui/use-card-reader';
import { isAmountKey } from './amount';
import { AmountPanel } from './AmountPanel';
import type { CardPayment, ChargedCard } from '../payment/card-payment';
import { prepareTransaction, useIdempotentSender } from '../payment/run-transaction';
import { CardPanel } from './CardPanel';
import { HeldCard } from './HeldCard';
import { Keypad } from './Keypad';
import { ResultView } from './ResultView';
import { freshSale, saleReducer, type SaleAction, type SaleState } from './sale-state';

function isTyping(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    target.closest('input, textarea, select, [contenteditable="true"]') !== null
  );
}

function isControl(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement && target.closest('button, a, summary, input, select, textarea') !== null
  );
}

export function SaleScreen() {
  const { reader, settings } = useTerminal();
  // Out of view, the sale keeps its state (and a charge in flight finishes), but takes no keys or swipes.
  const active = useScreenActiveRef();
  const [state, dispatch] = useReducer(saleReducer, undefined, freshSale);
  // Event handlers registered once read the latest step from here; it is updated with every action,
  // before React renders, so a swipe arriving in between already sees the new step.
  const current = useRef<SaleState>(state);
  // One charge in flight, and the one whose answer is unknown kept with its key for Check again.
  const { send: sendCharge, forget: forgetCharge } = useIdempotentSender('sale');
  const approve = useManagerApproval();
  // The request of a charge refused as a possible duplicate, card data included, kept only until the
  // cashier decides whether to charge again.
  const refusedAsDuplicate = useRef<TransactionRequestBody | null>(null);
  const [askingDuplicate, setAskingDuplicate] = useState(false);

  /** Settles a charge; a possible duplicate keeps its request for the cashier's decision. */
  const settle = useCallback((request: TransactionRequestBody | null, outcome: SaleOutcome) => {
    refusedAsDuplicate.current = request && isPossibleDuplicate(outcome) ? request : null;
    setAskingDuplicate(refusedAsDuplicate.current !== null);
  }, []);

  const readerOff = useRef(reader.state === 'off');
  useEffect(() => {
    readerOff.current = reader.state === 'off';
  }, [reader.state]);

  // A large amount is said back in words and digits before the card is taken.
  const [confirmingAmount, setConfirmingAmount] = useState(false);
  const confirmingAmountNow = useRef(false);
  const amountLimit = useRef(settings.confirmAmountAboveCents);
  useEffect(() => {
    amountLimit.current = settings.confirmAmountAboveCents;
  }, [settings.confirmAmountAboveCents]);

  // When the answer appeared: keys meant for the step before are ignored for a moment after.
  const answerShownAt = useRef(0);
  // A card swiped while the amount is still being typed: held, masked on screen, and charged once the
  // amount is confirmed. Its request fields stay here only until then.
  const heldSwipe = useRef<{ card: ChargedCard; payment: CardPayment } | null>(null);
  const [heldCard, setHeldCard] = useState<ChargedCard>();
  const chargeHeld = useRef<(card: ChargedCard, payment: CardPayment) => void>(() => undefined);
  const dropHeldCard = useCallback(() => {
    heldSwipe.current = null;
    setHeldCard(undefined);
  }, []);

  const act = useCallback(
    (action: SaleAction, amountConfirmed = false) => {
      const sale = current.current;
      if (
        action.type === 'take-card' &&
        !amountConfirmed &&
        sale.step === 'amount' &&
        needsAmountConfirm(sale.sale.cents, amountLimit.current)
      ) {
        confirmingAmountNow.current = true;
        setConfirmingAmount(true);
        return;
      }
      // Without a card reader the card is keyed in anyway: go straight to the form.
      const actions: SaleAction[] =
        action.type === 'take-card' && readerOff.current ? [action, { type: 'key-in' }] : [action];
      const start = current.current;
      for (const next of actions) {
        const before = current.current;
        current.current = saleReducer(before, next);
        if (current.current.step === 'result' && before.step !== 'result')
          answerShownAt.current = performance.now();
        // Leaving an unknown outcome for a new sale drops the card data kept for checking again.
        if (next.type === 'new-sale' && current.current !== before) {
          forgetCharge();
          heldSwipe.current = null;
          setHeldCard(undefined);
          refusedAsDuplicate.current = null;
          setAskingDuplicate(false);
        }
        dispatch(next);
      }
      // The amount is confirmed with a card already swiped: charge that card now.
      const held = heldSwipe.current;
      if (start.step === 'amount' && current.current.step === 'card' && held) {
        heldSwipe.current = null;
        setHeldCard(undefined);
        chargeHeld.current(held.card, held.payment);
      }
    },
    [forgetCharge],
  );

  const charge = useCallback(
    async (card: ChargedCard, payment: CardPayment) => {
      const before = current.current;
      if (before.step !== 'card') return;
      const { sale } = before;
      const request: TransactionRequestBody = {
        type: 'SALE',
        amount: formatMoney(sale.cents),
        ...payment,
        ...(sale.invoice.trim() && { invoice: sale.invoice.trim() }),
        ...(sale.orderNumber.trim() && { order_number: sale.orderNumber.trim() }),
      };
      const answer = sendCharge(prepareTransaction(request));
      if (!answer) return;
      act({ type: 'charge', card });
      const outcome = await answer;
      settle(request, outcome);
      act({ type: 'settled', outcome });
    },
    [act, sendCharge, settle],
  );

  useEffect(() => {
    chargeHeld.current = (card, payment) => void charge(card, payment);
  }, [charge]);

  // Whoever signs in starts a clean sale: an amount or a swiped card left behind the lock is someone
  // else's, or from before. A charge in flight or an answer on screen stays until it is settled.
  const signedInId = useCounterPerson().signedIn?.id ?? null;
  const lastSignedIn = useRef(signedInId);
  useEffect(() => {
    const previous = lastSignedIn.current;
    lastSignedIn.current = signedInId;
    if (signedInId === null || signedInId === previous) return;
    const step = current.current.step;
    if (step === 'amount' || step === 'card') act({ type: 'new-sale' });
  }, [act, signedInId]);

  /** The cashier confirmed a possible duplicate: the same request again, with duplicate_override. */
  const chargeAgain = useCallback(async () => {
    const refused = refusedAsDuplicate.current;
    if (!refused || current.current.step !== 'result') return;
    const approval = await approve(
      'duplicate',
      refused.amount === undefined ? undefined : `$${refused.amount}`,
    );
    if (approval === null) return;
    const request = { ...refused, duplicate_override: true };
    const answer = sendCharge(prepareTransaction(request, approval));
    if (!answer) return;
    setAskingDuplicate(false);
    act({ type: 'charge-again' });
    const outcome = await answer;
    settle(request, outcome);
    act({ type: 'settled', outcome });
  }, [act, approve, sendCharge, settle]);

  const dontChargeAgain = useCallback(() => {
    refusedAsDuplicate.current = null;
    setAskingDuplicate(false);
  }, []);

  const checkAgain = useCallback(async () => {
    const before = current.current;
    if (before.step !== 'result' || before.outcome.kind !== 'unknown') return;
    const answer = sendCharge();
    if (!answer) return;
    act({ type: 'recheck' });
    act({ type: 'settled', outcome: await answer });
  }, [act, sendCharge]);

  useCardReader({
    onSwipe: (card, payment) => {
      const step = current.current.step;
      if (step === 'card') {
        void charge(card, payment);
      } else if (step === 'amount') {
        heldSwipe.current = { card, payment };
        setHeldCard(card);
      }
      // While charging or showing a result, a swipe is ignored: one sale at a time.
    },
    onFailed: (message) => act({ type: 'notice', message }),
  });

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!active.current || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      // The confirmation of a large amount has the keys (its buttons, Esc) until it is answered.
      if (confirmingAmountNow.current) return;
      const sale = current.current;
      const typing = isTyping(event.target);
      let action: SaleAction | undefined;
      if (sale.step === 'amount' && !typing) {
        if (isAmountKey(event.key)) action = { type: 'amount-key', key: event.key };
        else if (event.key === 'Backspace') action = { type: 'backspace' };
        else if (event.key === 'Delete' || event.key === 'Escape') action = { type: 'clear-amount' };
        else if (event.key === 'Enter' && !isControl(event.target)) action = { type: 'take-card' };
      } else if (sale.step === 'card') {
        if (event.key === 'Escape') action = { type: 'back' };
        else if (!typing && sale.mode === 'swipe' && event.key.toLowerCase() === 'k')
          action = { type: 'key-in' };
      } else if (sale.step === 'result' && !typing) {
        if (performance.now() - answerShownAt.current < STEP_PAUSE_MS) {
          // Enter on the focused button would press it: that too waits.
          if (event.key === 'Enter' || event.key === ' ') event.preventDefault();
          return;
        }
        const next = nextAction(sale.outcome);
        if (event.key === 'Escape' || event.key.toLowerCase() === 'n') action = { type: 'new-sale' };
        else if (event.key === 'Enter' && !isControl(event.target))
          action =
            next === 'check-again'
              ? { type: 'recheck' }
              : next === 'new-sale'
                ? { type: 'new-sale' }
                : { type: 'try-again' };
        else if (event.key.toLowerCase() === 't') action = { type: 'try-again' };
      }
      if (!action) return;
      event.preventDefault();
      if (action.type === 'recheck') void checkAgain();
      else act(action);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [act, active, checkAgain]);

  if (state.step === 'result') {
    const { outcome } = state;
    return (
      <>
        <ResultView
          sale={state.sale}
          card={state.card}
          outcome={outcome}
          onNewSale={() => {
            dontChargeAgain();
            dropHeldCard();
            act({ type: 'new-sale' });
          }}
          onTryAgain={() => {
            dontChargeAgain();
            act({ type: 'try-again' });
          }}
          onCheckAgain={() => void checkAgain()}
        />
        {askingDuplicate && isPossibleDuplicate(outcome) && (
          <DuplicatePrompt
            duplicateOf={outcome.duplicateOf}
            cents={state.sale.cents}
            card={state.card}
            onChargeAgain={() => void chargeAgain()}
            onCancel={dontChargeAgain}
          />
        )}
      </>
    );
  }

  const closeAmountConfirm = () => {
    confirmingAmountNow.current = false;
    setConfirmingAmount(false);
  };

  return (
    <div className="sale">
      {confirmingAmount && state.step === 'amount' && (
        <LargeAmountConfirm
          cents={state.sale.cents}
          limitCents={settings.confirmAmountAboveCents}
          confirmLabel={`Charge ${displayMoney(state.sale.cents)}`}
          onConfirm={() => {
            closeAmountConfirm();
            act({ type: 'take-card' }, true);
          }}
          onCancel={closeAmountConfirm}
        />
      )}
      <AmountPanel state={state} act={act} />
      <section className="sale-side" aria-label={state.step === 'amount' ? 'Amount keypad' : 'Payment'}>
        {state.step === 'amount' ? (
          <>
            {heldCard && <HeldCard card={heldCard} onDrop={dropHeldCard} />}
            <Keypad cents={state.sale.cents} act={act} />
          </>
        ) : (
          <CardPanel state={state} act={act} onCharge={charge} />
        )}
      </section>
    </div>
  );
}
