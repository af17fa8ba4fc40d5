/**
 * The issuer side of a transaction. The engine asks a Processor and records what it answers: the
 * simulated issuer (simulated.ts), or the merchant's hosted gateway, to which each request is
 * forwarded (upstream.ts).
 */
import type { TransactionRequest } from '../../../shared/api/schemas';
import type { AnswerCode } from '../domain/codes';

/** The card's expiry and the billing details address verification reads. */
interface CardFacts {
  expiry: { month: number; year: number };
  csc?: string;
  billingStreet?: string;
  billingZip?: string;
}

/**
 * Card data as the processor needs it; it lives only for the length of one request. A keyed card,
 * or a swipe the engine decrypted, carries the number; a swipe bound for a gateway that decrypts it
 * itself carries the reader's encryption, untouched, and no number.
 */
export type CardDetails = CardFacts &
  (
    | { entryMode: 'keyed' | 'swiped'; pan: string }
    | { entryMode: 'swiped'; pan?: undefined; encryptedSwipe: { trackData: string; trackFormat: 'MAGTEK' } }
  );

/**
 * What a processor that forwards requests needs besides the amounts and the card: the caller's own
 * fields (invoice, billing, description, ...) to send on, and the reference that finds the request
 * again in the gateway's list when its answer is lost.
 */
export interface Forwarding {
  request: TransactionRequest;
  reference: string;
}

/** What the gateway that decided a request says about it, besides the decision. */
interface GatewayMarks {
  /** The gateway's own id of the transaction, for follow-ups and for people reconciling. */
  upstreamId?: string;
  /** The reference the request went with (Forwarding.reference). */
  reference?: string;
}

export type ProcessorDecision = GatewayMarks &
  (
    | {
        outcome: 'approved';
        authorizationCode: string;
        resultCode: string;
        message: string;
        avs?: string;
        csc?: string;
      }
    | { outcome: 'declined'; resultCode: string; message: string; avs?: string; csc?: string }
    | {
        outcome: 'error';
        resultCode: string;
        errorCode: AnswerCode;
        message: string;
        /**
         * For a forwarded request: 'unreachable' when no connection could be made, so nothing was
         * sent; 'unknown' when it was sent and what the gateway did could not be learned.
         */
        line?: 'unreachable' | 'unknown';
        /**
         * With 'unknown': the gateway could not be reached at all to look the request up. Whatever
         * it did can still be learned later, by the same lookup, before the request is sent again.
         */
        lookupUnreachable?: true;
        /** The gateway itself answered Error: the request reached it, and nothing was charged. */
        answeredByGateway?: true;
      }
    | {
        outcome: 'rejected';
        errorCode: AnswerCode;
        message: string;
        /** A gateway's possible duplicate (8033): its own id of the earlier charge, when it named one. */
        gatewayDuplicateOf?: string;
      }
  );

export interface Processor {
  /** Fraud screening of where a request comes from, before anything else happens. */
  screen(request: { clientIp?: string }): ProcessorDecision | undefined;
  /** SALE and AUTH: ask the issuer to approve an amount on a card. */
  authorize(request: {
    kind: 'sale' | 'auth';
    amountCents: number;
    card: CardDetails;
    forwarding?: Forwarding;
  }): Promise<ProcessorDecision>;
  /** FORCED SALE: post a sale the issuer approved by voice, with the code it gave (tip included). */
  forcedSale(request: {
    amountCents: number;
    tipCents: number;
    authorizationCode: string;
    card: CardDetails;
    forwarding?: Forwarding;
  }): Promise<ProcessorDecision>;
  /** Unmatched REFUND: credit a card with no original transaction. */
  credit(request: {
    amountCents: number;
    card: CardDetails;
    forwarding?: Forwarding;
  }): Promise<ProcessorDecision>;
  /** CAPTURE, matched REFUND and VOID: follow-ups on an earlier approval. */
  followUp(request: {
    kind: 'capture' | 'refund' | 'void';
    /** With the tip, for a capture. */
    amountCents: number;
    /** A capture's tip, part of amountCents. */
    tipCents?: number;
    originalAuthorizationCode: string;
    /** The gateway's id of the original, which a forwarded follow-up names. */
    originalUpstreamId?: string | null;
    forwarding?: Forwarding;
  }): Promise<ProcessorDecision>;
}
