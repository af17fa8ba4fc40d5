/**
 * The steps of one sale, as a reducer: amount, the tip (when tips are offered at the counter), card
 * (swipe or keyed), charging, result. Actions that do not fit the current step are ignored, so a late
 * swipe or a second tap cannot move a sale that has already gone past them.
 */
import { pressAmountKey, pressBackspace, type AmountKey } from './amount';
import type { ChargedCard } from '../payment/card-payment';
import { isPossibleDuplicate, type SaleOutcome } from '../payment/outcome';

export interface SaleDetails {
  /** The sale's amount, before the tip. */
  cents: number;
  /** The tip on top of it, chosen at the counter; 0 for none. */
  tipCents: number;
  /** How the tip was chosen ("20%", "$2.00", "Custom", "No tip"), or '' before it is. */
  tipLabel: string;
  invoice: string;
  orderNumber: string;
}

/** What the card is charged: the amount and its tip. */
export function totalOf(sale: SaleDetails): number {
  return sale.cents + sale.tipCents;
}

export type SaleState =
  /**
   * `untouched`: the amount on screen was not typed on this visit to the step (the cashier came back
   * to it from the card or the tip): the first digit replaces it, as typing into a money field just
   * entered does, and Backspace edits it.
   */
  | { step: 'amount'; sale: SaleDetails; notice?: string; untouched?: boolean }
  /** The customer (on their screen) or the cashier chooses the tip. */
  | { step: 'tip'; sale: SaleDetails; notice?: string }
  | { step: 'card'; sale: SaleDetails; mode: 'swipe' | 'keyed'; notice?: string }
  | { step: 'charging'; sale: SaleDetails; card: ChargedCard }
  | { step: 'result'; sale: SaleDetails; card: ChargedCard; outcome: SaleOutcome };

export type SaleAction =
  | { type: 'amount-key'; key: AmountKey }
  | { type: 'backspace' }
  | { type: 'clear-amount' }
  | { type: 'invoice'; value: string }
  | { type: 'order-number'; value: string }
  /** Amount confirmed: wait for the card. */
  | { type: 'take-card' }
  /** Amount confirmed, tips offered: the tip first. */
  | { type: 'ask-tip' }
  | { type: 'tip-chosen'; tipCents: number; label: string }
  | { type: 'key-in' }
  | { type: 'swipe-instead' }
  | { type: 'back' }
  /** From the card step straight back to the amount, whatever the card mode. */
  | { type: 'edit-amount' }
  | { type: 'notice'; message: string }
  | { type: 'charge'; card: ChargedCard }
  | { type: 'settled'; outcome: SaleOutcome }
  /** Same amount and references, another card. */
  | { type: 'try-again' }
  /** The same charge sent again, after no answer: the idempotency key makes it charge at most once. */
  | { type: 'recheck' }
  /** The same card charged again past a possible duplicate, once the cashier confirmed it. */
  | { type: 'charge-again' }
  | { type: 'new-sale' };

export const freshSale = (): SaleState => ({
  step: 'amount',
  sale: { cents: 0, tipCents: 0, tipLabel: '', invoice: '', orderNumber: '' },
});

/** Back to the amount: a tip chosen for the old amount is asked again for the new one. */
function backToAmount(sale: SaleDetails): SaleState {
  return { step: 'amount', sale: { ...sale, tipCents: 0, tipLabel: '' }, untouched: sale.cents > 0 };
}

export function saleReducer(state: SaleState, action: SaleAction): SaleState {
  switch (action.type) {
    case 'amount-key':
    case 'backspace':
    case 'clear-amount': {
      if (state.step !== 'amount') return state;
      const cents =
        action.type === 'amount-key'
          ? pressAmountKey(state.untouched ? 0 : state.sale.cents, action.key)
          : action.type === 'backspace'
            ? pressBackspace(state.sale.cents)
            : 0;
      return { step: 'amount', sale: { ...state.sale, cents } };
    }
    case 'invoice':
      return state.step === 'amount' ? { ...state, sale: { ...state.sale, invoice: action.value } } : state;
    case 'order-number':
      return state.step === 'amount'
        ? { ...state, sale: { ...state.sale, orderNumber: action.value.toUpperCase() } }
        : state;
    case 'take-card':
      return state.step === 'amount' && state.sale.cents > 0
        ? { step: 'card', sale: state.sale, mode: 'swipe' }
        : state;
    case 'ask-tip':
      return state.step === 'amount' && state.sale.cents > 0 ? { step: 'tip', sale: state.sale } : state;
    case 'tip-chosen':
      return state.step === 'tip'
        ? {
            step: 'card',
            sale: { ...state.sale, tipCents: action.tipCents, tipLabel: action.label },
            mode: 'swipe',
          }
        : state;
    case 'key-in':
      return state.step === 'card' ? { step: 'card', sale: state.sale, mode: 'keyed' } : state;
    case 'swipe-instead':
      return state.step === 'card' ? { step: 'card', sale: state.sale, mode: 'swipe' } : state;
    case 'back':
      if (state.step === 'tip') return backToAmount(state.sale);
      if (state.step !== 'card') return state;
      return state.mode === 'keyed'
        ? { step: 'card', sale: state.sale, mode: 'swipe' }
        : backToAmount(state.sale);
    case 'edit-amount':
      return state.step === 'card' || state.step === 'tip' ? backToAmount(state.sale) : state;
    case 'notice':
      return state.step === 'amount' || state.step === 'card' || state.step === 'tip'
        ? { ...state, notice: action.message }
        : state;
    case 'charge':
      return state.step === 'card' ? { step: 'charging', sale: state.sale, card: action.card } : state;
    case 'settled':
      return state.step === 'charging' ? { ...state, step: 'result', outcome: action.outcome } : state;
    case 'try-again':
      // After no answer the first charge may have gone through: another card could charge twice.
      return state.step === 'result' && state.outcome.kind !== 'approved' && state.outcome.kind !== 'unknown'
        ? { step: 'card', sale: state.sale, mode: 'swipe' }
        : state;
    case 'recheck':
      return state.step === 'result' && state.outcome.kind === 'unknown'
        ? { step: 'charging', sale: state.sale, card: state.card }
        : state;
    case 'charge-again':
      return state.step === 'result' && isPossibleDuplicate(state.outcome)
        ? { step: 'charging', sale: state.sale, card: state.card }
        : state;
    case 'new-sale':
      return state.step === 'result' ||
        state.step === 'amount' ||
        state.step === 'card' ||
        state.step === 'tip'
        ? freshSale()
        : state;
  }
}
