/**
 * One sale at the counter: type the amount, the tip when tips are offered at the counter (chosen by
 * the customer on their screen, or by the cashier here), take the card (swipe, or key it in), see the
 * answer, start the next. With a customer's screen, the customer sees each step and chooses the tip,
 * signs and chooses the receipt there, and the cashier sees what they chose. Works by touch and by
 * keyboard alone, and never has two charges in flight.
 */
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import type { TransactionRequestBody } from '../../../shared/api/schemas';
import type { CustomerStep, CustomerView } from '../../../shared/ipc/customer-contract';
import { displayMoney } from '../../../shared/money';
import { useManagerApproval } from '../manager/manager-approval';
import { DuplicatePrompt } from '../payment/DuplicatePrompt';
import { isPossibleDuplicate, nextAction, offersAnotherTry, type SaleOutcome } from '../payment/outcome';
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
import { CounterTip } from '../payment/CounterTip';
import { CustomerProgress } from '../payment/CustomerProgress';
import { useCustomerScreen, type CustomerAnswer, type CustomerTold } from '../payment/customer-screen';
import { firstRequest, holdsCard, settleTipped, type TippedCharge } from '../payment/tipped-charge';
import { CardPanel } from './CardPanel';
import { HeldCard } from './HeldCard';
import { Keypad } from './Keypad';
import { ResultView } from './ResultView';
import { freshSale, saleReducer, totalOf, type SaleAction, type SaleState } from './sale-state';

/** Steps of the customer's screen reached once it has printed what prints by itself after a sale. */
const PRINTED_BY_THE_CUSTOMER_SCREEN: ReadonlySet<CustomerStep['step']> = new Set([
  'approved',
  'receipt',
  'thanks',
  'idle',
]);

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
  // An approved AUTH of this sale whose capture did not go through: the card holds the total.
  const [cardHeld, setCardHeld] = useState(false);
  // A tipped charge under way (its AUTH, then its capture); none for a sale without a tip.
  const tipped = useRef<TippedCharge | undefined>(undefined);
  const [onCustomerScreen, setOnCustomerScreen] = useState(false);
  const onCustomerScreenNow = useRef(false);
  // The sequence of the view that answered this sale's start: what the customer chose is read only
  // from views as new as that, never from the previous sale's, still on hand until the host answers.
  const [customerSaleFrom, setCustomerSaleFrom] = useState<number>();
  const customerSaleFromNow = useRef<number>(undefined);
  const customerStarts = useRef(0);
  // The sale this page put on the customer's screen, by the saleSequence its start was answered with:
  // what every later request about it names. A promise, since a card swiped before the amount was
  // confirmed is charged before that answer is in.
  const customerSale = useRef<Promise<number | undefined>>(Promise.resolve(undefined));
  // The cashier pressed Cancel and the customer's screen has not answered yet: nothing is charged.
  const cancelling = useRef(false);
  // The customer's screen is being told of a charge about to be sent: one at a time.
  const startingCharge = useRef(false);
  const startOnCustomerScreen = useCallback((sequence: number | undefined) => {
    customerSaleFromNow.current = sequence;
    setCustomerSaleFrom(sequence);
  }, []);
  // The customer's screen printed what prints by itself after this sale's approval.
  const [printedThere, setPrintedThere] = useState(false);
  const runOnCustomerScreen = useCallback((yes: boolean) => {
    onCustomerScreenNow.current = yes;
    setOnCustomerScreen(yes);
  }, []);
  // A host that restarted during the sale has forgotten it. The rest of the sale is the cashier's
  // screen's, as without a customer's screen, and its answer prints what prints by itself unless the
  // customer's screen had come as far as printing it.
  const hostForgotSale = useCallback(
    (before: CustomerView) => {
      const from = customerSaleFromNow.current;
      if (!onCustomerScreenNow.current || from === undefined) return;
      setPrintedThere(before.sequence >= from && PRINTED_BY_THE_CUSTOMER_SCREEN.has(before.step.step));
      customerSale.current = Promise.resolve(undefined);
      startOnCustomerScreen(undefined);
      runOnCustomerScreen(false);
    },
    [runOnCustomerScreen, startOnCustomerScreen],
  );
  // The customer's screen, and whether this sale runs on it (decided when the amount is confirmed).
  const customer = useCustomerScreen(hostForgotSale);
  const customerNow = useRef(customer);
  useEffect(() => {
    customerNow.current = customer;
  }, [customer]);
  /**
   * Tells the customer's screen something about this page's sale, naming it. When that sale is no
   * longer there (another cashier's page put its own there), the rest of this sale is the cashier's
   * screen's, as without a customer's screen, and its answer prints what prints by itself.
   */
  const tellCustomer = useCallback(
    async (request: (saleSequence: number) => Promise<CustomerTold>): Promise<CustomerTold> => {
      const saleSequence = await customerSale.current;
      if (saleSequence === undefined) return 'failed';
      return request(saleSequence);
    },
    [],
  );
  /** The customer's screen goes back to its welcome, if this page's sale is still the one on it. */
  const finishOnCustomerScreen = useCallback(() => {
    void customerSale.current.then((saleSequence) => {
      if (saleSequence !== undefined) customerNow.current.finish(saleSequence);
    });
  }, []);
  const aloneIfElsewhere = useCallback(
    (told: CustomerTold) => {
      if (told === 'elsewhere') runOnCustomerScreen(false);
    },
    [runOnCustomerScreen],
  );

  const tipsOffered = useRef(false);
  useEffect(() => {
    tipsOffered.current = settings.tipsEnabled && settings.counterTips;
  }, [settings.tipsEnabled, settings.counterTips]);

  /** Settles a charge; a possible duplicate keeps its request for the cashier's decision. */
  const settle = useCallback(
    (request: TransactionRequestBody | null, outcome: SaleOutcome) => {
      refusedAsDuplicate.current = request && isPossibleDuplicate(outcome) ? request : null;
      setAskingDuplicate(refusedAsDuplicate.current !== null);
      setCardHeld(outcome.kind !== 'approved' && holdsCard(tipped.current));
      if (!onCustomerScreenNow.current) return;
      // The customer is told in their words; while the answer is unknown their screen keeps waiting.
      const sale = current.current.sale;
      const answer: CustomerAnswer | undefined =
        outcome.kind === 'approved'
          ? { outcome: 'approved', transactionId: Number(outcome.transactionId), totalCents: totalOf(sale) }
          : outcome.kind === 'declined'
            ? { outcome: 'declined' }
            : outcome.kind !== 'unknown'
              ? { outcome: 'other' }
              : undefined;
      if (answer) {
        void tellCustomer((saleSequence) => customerNow.current.answered(saleSequence, answer)).then(
          aloneIfElsewhere,
        );
      }
    },
    [aloneIfElsewhere, tellCustomer],
  );

  /** The answer of the latest request as the sale's: an approved AUTH of a tipped sale is captured first. */
  const finish = useCallback(
    async (answer: Promise<SaleOutcome>): Promise<SaleOutcome> => {
      const outcome = await answer;
      const charge = tipped.current;
      if (!charge) return outcome;
      return settleTipped(charge, outcome, (next) => sendCharge(next));
    },
    [sendCharge],
  );

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
      // Tips offered at the counter: the tip comes first, then the card.
      const first: SaleAction =
        action.type === 'take-card' && sale.step === 'amount' && tipsOffered.current
          ? { type: 'ask-tip' }
          : action;
      // Without a card reader the card is keyed in anyway: go straight to the form.
      const keyIn = readerOff.current && (first.type === 'take-card' || first.type === 'tip-chosen');
      const actions: SaleAction[] = keyIn ? [first, { type: 'key-in' }] : [first];
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
          tipped.current = undefined;
          setCardHeld(false);
        }
        dispatch(next);
      }
      const after = current.current;
      // The amount is confirmed: the sale goes to the customer's screen, when one is there.
      if (start.step === 'amount' && (after.step === 'tip' || after.step === 'card')) {
        const present = customerNow.current.present;
        runOnCustomerScreen(present);
        startOnCustomerScreen(undefined);
        setPrintedThere(false);
        const started = ++customerStarts.current;
        cancelling.current = false;
        customerSale.current = Promise.resolve(undefined);
        if (present) {
          // A customer's screen that cannot take the sale leaves it to the cashier's screen.
          const starting = customerNow.current.start(after.sale.cents, after.step === 'tip');
          customerSale.current = starting.then((shown) => shown?.saleSequence);
          void starting.then((shown) => {
            if (started !== customerStarts.current) return;
            if (!shown) runOnCustomerScreen(false);
            else startOnCustomerScreen(shown.sequence);
          });
        }
      } else if (onCustomerScreenNow.current && start.step !== 'amount' && after.step === 'amount') {
        // Back to the amount (changed, or a new sale): the customer's screen goes back to its welcome.
        runOnCustomerScreen(false);
        finishOnCustomerScreen();
      }
      // The amount (and tip) confirmed with a card already swiped: charge that card now.
      const held = heldSwipe.current;
      if (start.step !== 'card' && after.step === 'card' && after.mode === 'swipe' && held) {
        heldSwipe.current = null;
        setHeldCard(undefined);
        chargeHeld.current(held.card, held.payment);
      }
    },
    [finishOnCustomerScreen, forgetCharge, runOnCustomerScreen, startOnCustomerScreen],
  );

  // The server number of who is signed in, read when the card is charged.
  const { signedIn } = useCounterPerson();
  const serverNow = useRef(signedIn?.serverId ?? '');
  useEffect(() => {
    serverNow.current = signedIn?.serverId ?? '';
  }, [signedIn?.serverId]);

  const charge = useCallback(
    async (card: ChargedCard, payment: CardPayment) => {
      const before = current.current;
      if (before.step !== 'card' || startingCharge.current || cancelling.current) return;
      const { sale } = before;
      if (onCustomerScreenNow.current) {
        // The customer's screen hears of the charge, and answers, before it is sent: from then on it
        // refuses Cancel, and a sale it has already called off is never charged.
        startingCharge.current = true;
        let told: CustomerTold;
        try {
          told = await tellCustomer((saleSequence) => customerNow.current.charging(saleSequence));
        } finally {
          startingCharge.current = false;
        }
        const now = current.current;
        if (now.step !== 'card' || now.sale !== sale) return;
        if (told !== 'shown' && cancelling.current) return;
        aloneIfElsewhere(told);
      }
      const { request, tipped: tip } = firstRequest(
        {
          amountCents: sale.cents,
          tipCents: sale.tipCents,
          ...(sale.invoice.trim() && { invoice: sale.invoice.trim() }),
          ...(sale.orderNumber.trim() && { orderNumber: sale.orderNumber.trim() }),
          ...(serverNow.current && { serverId: serverNow.current }),
        },
        payment,
      );
      const answer = sendCharge(prepareTransaction(request));
      if (!answer) return;
      tipped.current = tip;
      act({ type: 'charge', card });
      const outcome = await finish(answer);
      settle(request, outcome);
      act({ type: 'settled', outcome });
    },
    [act, aloneIfElsewhere, finish, sendCharge, settle, tellCustomer],
  );

  useEffect(() => {
    chargeHeld.current = (card, payment) => void charge(card, payment);
  }, [charge]);

  // Someone else signing in starts a clean sale: an amount or a swiped card left behind the lock is
  // another's. The same person signing back in (after the lock, or once Tender has restarted) finds
  // their sale as they left it. A charge in flight or an answer on screen stays until it is settled.
  const signedInId = signedIn?.id ?? null;
  const lastSignedIn = useRef(signedInId);
  useEffect(() => {
    if (signedInId === null) return;
    const previous = lastSignedIn.current;
    lastSignedIn.current = signedInId;
    if (signedInId === previous) return;
    const step = current.current.step;
    if (step === 'amount' || step === 'tip' || step === 'card') act({ type: 'new-sale' });
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
    if (onCustomerScreenNow.current) {
      void tellCustomer((saleSequence) => customerNow.current.charging(saleSequence)).then(aloneIfElsewhere);
    }
    const outcome = await finish(answer);
    settle(request, outcome);
    act({ type: 'settled', outcome });
  }, [act, aloneIfElsewhere, approve, finish, sendCharge, settle, tellCustomer]);

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
    const outcome = await finish(answer);
    settle(null, outcome);
    act({ type: 'settled', outcome });
  }, [act, finish, sendCharge, settle]);

  /** Another card after a refusal; never while the card holds an approved AUTH of this sale. */
  const tryAgain = useCallback(() => {
    if (holdsCard(tipped.current)) return;
    tipped.current = undefined;
    act({ type: 'try-again' });
    if (onCustomerScreenNow.current) {
      void customerSale.current.then((saleSequence) => {
        if (saleSequence !== undefined) customerNow.current.tryAgain(saleSequence);
      });
    }
  }, [act]);

  /**
   * The sale called off before the card was read, on the customer's screen too. Until the customer's
   * screen answers, nothing is charged: a tip chosen there meanwhile, with a card already swiped,
   * does not charge it. Refused once the customer's screen has heard of the charge.
   */
  const cancelSale = useCallback(async (): Promise<string | undefined> => {
    if (onCustomerScreenNow.current) {
      cancelling.current = true;
      try {
        const saleSequence = await customerSale.current;
        const refused =
          saleSequence === undefined ? undefined : await customerNow.current.cancel(saleSequence);
        if (refused) return refused;
      } finally {
        cancelling.current = false;
      }
      runOnCustomerScreen(false);
    }
    dropHeldCard();
    act({ type: 'new-sale' });
    return undefined;
  }, [act, dropHeldCard, runOnCustomerScreen]);

  /** The next sale: the customer's screen goes back to its welcome. */
  const newSale = useCallback(() => {
    if (onCustomerScreenNow.current) finishOnCustomerScreen();
    runOnCustomerScreen(false);
    act({ type: 'new-sale' });
  }, [act, finishOnCustomerScreen, runOnCustomerScreen]);

  // The tip the customer chose on their screen takes the sale to the card.
  const customerView = customer.view;
  useEffect(() => {
    const sale = current.current;
    if (!onCustomerScreen || sale.step !== 'tip' || !customerView) return;
    if (customerSaleFrom === undefined || customerView.sequence < customerSaleFrom) return;
    const { step, choices } = customerView;
    // No tip chosen there means the host offered none (its settings changed meanwhile): none it is.
    if (step.step === 'swipe' && step.amountCents === sale.sale.cents) {
      act({ type: 'tip-chosen', tipCents: choices.tipCents ?? 0, label: choices.tipLabel ?? '' });
    }
  }, [act, customerView, customerSaleFrom, onCustomerScreen]);

  useCardReader({
    onSwipe: (card, payment) => {
      const step = current.current.step;
      if (step === 'card') {
        void charge(card, payment);
      } else if (step === 'amount' || step === 'tip') {
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
      } else if (sale.step === 'tip') {
        if (event.key === 'Escape' && !onCustomerScreenNow.current) action = { type: 'back' };
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
        const next = nextAction(sale.outcome, holdsCard(tipped.current));
        if (event.key === 'Escape' || event.key.toLowerCase() === 'n') action = { type: 'new-sale' };
        else if (event.key === 'Enter' && !isControl(event.target))
          action =
            next === 'check-again'
              ? { type: 'recheck' }
              : next === 'new-sale'
                ? { type: 'new-sale' }
                : { type: 'try-again' };
        else if (event.key.toLowerCase() === 't' && offersAnotherTry(sale.outcome, holdsCard(tipped.current)))
          action = { type: 'try-again' };
      }
      if (!action) return;
      event.preventDefault();
      if (action.type === 'recheck') void checkAgain();
      else if (action.type === 'try-again') tryAgain();
      else if (action.type === 'new-sale') newSale();
      else act(action);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [act, active, checkAgain, newSale, tryAgain]);

  if (state.step === 'result') {
    const { outcome } = state;
    return (
      <>
        <ResultView
          sale={state.sale}
          card={state.card}
          outcome={outcome}
          holdsCard={cardHeld}
          customer={
            onCustomerScreen && customer.view ? (
              <CustomerProgress view={customer.view} onSkip={customer.skip} />
            ) : undefined
          }
          printsByItself={!onCustomerScreen && !printedThere}
          onNewSale={() => {
            dontChargeAgain();
            dropHeldCard();
            newSale();
          }}
          onTryAgain={() => {
            dontChargeAgain();
            tryAgain();
          }}
          onCheckAgain={() => void checkAgain()}
        />
        {askingDuplicate && isPossibleDuplicate(outcome) && (
          <DuplicatePrompt
            duplicateOf={outcome.duplicateOf}
            cents={totalOf(state.sale)}
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
      <AmountPanel
        state={state}
        act={act}
        customerScreen={state.step === 'amount' ? customer.present : onCustomerScreen}
      />
      <section
        className="sale-side"
        aria-label={state.step === 'amount' ? 'Amount keypad' : state.step === 'tip' ? 'Tip' : 'Payment'}
      >
        {state.step === 'amount' ? (
          <>
            {heldCard && <HeldCard card={heldCard} onDrop={dropHeldCard} />}
            <Keypad cents={state.sale.cents} act={act} />
          </>
        ) : state.step === 'tip' ? (
          <>
            {heldCard && <HeldCard card={heldCard} onDrop={dropHeldCard} />}
            {onCustomerScreen && customer.view ? (
              <CustomerProgress view={customer.view} onSkip={customer.skip} onCancel={cancelSale} main />
            ) : (
              <CounterTip
                amountCents={state.sale.cents}
                settings={settings}
                onTip={(tip) => act({ type: 'tip-chosen', tipCents: tip.tipCents, label: tip.label })}
                onCancel={() => void cancelSale()}
              />
            )}
          </>
        ) : (
          <>
            <CardPanel state={state} act={act} onCharge={charge} />
            {onCustomerScreen && customer.view && state.step === 'card' && (
              <CustomerProgress view={customer.view} onCancel={cancelSale} />
            )}
          </>
        )}
      </section>
    </div>
  );
}
