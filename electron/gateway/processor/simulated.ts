/**
 * A deterministic stand-in issuer, with published test cards like the big gateways have. docs/api.md
 * lists every card and what it does; tests rely on exactly these outcomes.
 */
import { randomInt } from 'node:crypto';
import { ERROR_CODES, RESULT_CODES, type AvsCode, type CscCode } from '../domain/codes';
import type { CardDetails, Processor, ProcessorDecision } from './processor';

export const TEST_CARDS = {
  DECLINED: '4000000000000002',
  INSUFFICIENT_FUNDS: '4000000000009995',
  PROCESSOR_ERROR: '4000000000000119',
} as const;

export const CSC_MISMATCH = '999';
export const AVS_MISMATCH_ZIP = '99999';

/** 198.51.100.0/24 (TEST-NET-2) stands for a blocked geographic location. */
export function isBlockedLocation(clientIp: string): boolean {
  return /^198\.51\.100\.\d{1,3}$/.test(clientIp) || /^::ffff:198\.51\.100\.\d{1,3}$/i.test(clientIp);
}

const AUTH_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';

/** Six characters, as issuers hand out. */
export function newAuthorizationCode(): string {
  let code = '';
  for (let i = 0; i < 6; i++) code += AUTH_CODE_ALPHABET[randomInt(AUTH_CODE_ALPHABET.length)];
  return code;
}

function avsFor(card: CardDetails): AvsCode {
  if (card.billingZip === AVS_MISMATCH_ZIP) return 'N';
  if (card.billingZip && card.billingStreet) return 'Y';
  if (card.billingZip) return 'Z';
  if (card.billingStreet) return 'A';
  return 'U';
}

function cscFor(card: CardDetails): CscCode {
  if (card.csc === undefined) return 'P';
  return card.csc === CSC_MISMATCH ? 'N' : 'M';
}

/**
 * The simulator reads cards the engine decrypted; a swipe still in the reader's encryption is only
 * ever made for a gateway, so reaching here means the processor setting changed mid-request.
 */
function unreadableSwipe(): ProcessorDecision {
  return {
    outcome: 'error',
    resultCode: RESULT_CODES.SYSTEM_MALFUNCTION,
    errorCode: ERROR_CODES.PROCESSOR_UNAVAILABLE,
    message: 'Processor error: the swipe could not be read. Swipe the card again.',
  };
}

function processorError(): ProcessorDecision {
  return {
    outcome: 'error',
    resultCode: RESULT_CODES.SYSTEM_MALFUNCTION,
    errorCode: ERROR_CODES.PROCESSOR_UNAVAILABLE,
    message: 'Processor error: the card network did not answer. Try again in a moment.',
  };
}

export class SimulatedProcessor implements Processor {
  screen(request: { clientIp?: string }): ProcessorDecision | undefined {
    if (request.clientIp !== undefined && isBlockedLocation(request.clientIp)) {
      return {
        outcome: 'rejected',
        errorCode: ERROR_CODES.BLOCKED_LOCATION,
        message: 'Blocked geographic location: transactions from this address are not accepted.',
      };
    }
    return undefined;
  }

  async authorize(request: { kind: 'sale' | 'auth'; amountCents: number; card: CardDetails }) {
    const { card } = request;
    if (card.pan === undefined) return unreadableSwipe();
    if (card.pan === TEST_CARDS.PROCESSOR_ERROR) return processorError();
    const avs = avsFor(card);
    const csc = cscFor(card);
    if (card.pan === TEST_CARDS.DECLINED) {
      return declined(
        RESULT_CODES.DO_NOT_HONOR,
        'Declined by the card issuer. Ask for another card.',
        avs,
        csc,
      );
    }
    if (card.pan === TEST_CARDS.INSUFFICIENT_FUNDS) {
      return declined(
        RESULT_CODES.INSUFFICIENT_FUNDS,
        'Declined: insufficient funds. Ask for another card.',
        avs,
        csc,
      );
    }
    if (csc === 'N') {
      return declined(
        RESULT_CODES.DO_NOT_HONOR,
        'Declined: the security code does not match. Check it or ask for another card.',
        avs,
        csc,
      );
    }
    return approved(avs, csc);
  }

  async forcedSale(request: { authorizationCode: string; card: CardDetails }): Promise<ProcessorDecision> {
    // The issuer approved it by voice: the simulated network posts it with the code it was given.
    if (request.card.pan === undefined) return unreadableSwipe();
    return {
      outcome: 'approved',
      authorizationCode: request.authorizationCode.toUpperCase(),
      resultCode: RESULT_CODES.APPROVED,
      message: 'Approved',
    };
  }

  async credit(request: { amountCents: number; card: CardDetails }) {
    if (request.card.pan === undefined) return unreadableSwipe();
    if (request.card.pan === TEST_CARDS.PROCESSOR_ERROR) return processorError();
    return approved(avsFor(request.card), cscFor(request.card));
  }

  async followUp(_request: {
    kind: 'capture' | 'refund' | 'void';
    amountCents: number;
    originalAuthorizationCode: string;
  }) {
    return approved();
  }
}

function approved(avs?: AvsCode, csc?: CscCode): ProcessorDecision {
  return {
    outcome: 'approved',
    authorizationCode: newAuthorizationCode(),
    resultCode: RESULT_CODES.APPROVED,
    message: 'Approved',
    ...(avs && { avs }),
    ...(csc && { csc }),
  };
}

function declined(resultCode: string, message: string, avs: AvsCode, csc: CscCode): ProcessorDecision {
  return { outcome: 'declined', resultCode, message, avs, csc };
}
