/**
 * The issuer side of a transaction. The engine asks a Processor and records what it answers; the
 * simulated one below stands in for a real network until one is connected.
 */
import type { AvsCode, CscCode, ErrorCode } from '../domain/codes';

/** Card data as the processor needs it; it lives only for the length of one request. */
export interface CardDetails {
  pan: string;
  expiry: { month: number; year: number };
  csc?: string;
  billingStreet?: string;
  billingZip?: string;
  entryMode: 'keyed' | 'swiped';
}

export type ProcessorDecision =
  | {
      outcome: 'approved';
      authorizationCode: string;
      resultCode: string;
      message: string;
      avs?: AvsCode;
      csc?: CscCode;
    }
  | { outcome: 'declined'; resultCode: string; message: string; avs?: AvsCode; csc?: CscCode }
  | { outcome: 'error'; resultCode: string; errorCode: ErrorCode; message: string }
  | { outcome: 'rejected'; errorCode: ErrorCode; message: string };

export interface Processor {
  /** Fraud screening of where a request comes from, before anything else happens. */
  screen(request: { clientIp?: string }): ProcessorDecision | undefined;
  /** SALE and AUTH: ask the issuer to approve an amount on a card. */
  authorize(request: {
    kind: 'sale' | 'auth';
    amountCents: number;
    card: CardDetails;
  }): Promise<ProcessorDecision>;
  /** Unmatched REFUND: credit a card with no original transaction. */
  credit(request: { amountCents: number; card: CardDetails }): Promise<ProcessorDecision>;
  /** CAPTURE, matched REFUND and VOID: follow-ups on an earlier approval. */
  followUp(request: {
    kind: 'capture' | 'refund' | 'void';
    amountCents: number;
    originalAuthorizationCode: string;
  }): Promise<ProcessorDecision>;
}
