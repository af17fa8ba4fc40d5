// The card payment core lives in payment/; tabs and refunds still import it by this path.
export type { CardPayment } from '../payment/card-payment';
