// The card payment core lives in payment/; tabs and refunds still import it by this path.
export { cardholderOf, cardName, cardWithHolder } from '../payment/card-text';
