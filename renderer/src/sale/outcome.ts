// The card payment core lives in payment/; tabs still import the outcome by this path.
export type { SaleOutcome } from '../payment/outcome';
