/**
 * What the cashier is told after a sale: the engine's answer in words for the counter, and what to
 * do next. Nothing is swallowed: a refusal of the engine or a lost connection is an outcome too.
 */
import { TenderApiError } from '../../../shared/api/client';
import type { TransactionResponse } from '../../../shared/api/schemas';
import { BridgeCallError } from '../../../shared/ipc/facade';

export type SaleOutcome =
  | {
      kind: 'approved';
      transactionId: string;
      authorizationCode: string;
      /** Address and security code checks, when the issuer reported them. */
      avs?: string;
      csc?: string;
    }
  /** The issuer said no. */
  | { kind: 'declined'; message: string; nextStep?: string; transactionId?: string }
  /** The engine refused what was sent (a field, an expired card, a swipe it cannot use). */
  | {
      kind: 'rejected';
      message: string;
      nextStep?: string;
      errorCode?: string;
      /** A possible duplicate (8033): the earlier charge on the same card for the same amount. */
      duplicateOf?: string;
    }
  /** The processor failed; the attempt is recorded and nothing was charged. */
  | { kind: 'error'; message: string; nextStep?: string; transactionId?: string }
  /** The engine answered with an HTTP error: the request was refused before any charge. */
  | { kind: 'refused'; message: string; nextStep: string; status: number }
  /**
   * Whether the card was charged is not known yet: no answer came, Tender could not be reached, or
   * the engine is still working on this sale. Sending the same request with the same idempotency key
   * settles it without charging twice.
   */
  | {
      kind: 'unknown';
      reason: 'no-answer' | 'unreachable' | 'in-progress';
      message: string;
      nextStep: string;
    };

const TITLES: Record<SaleOutcome['kind'], string> = {
  approved: 'Approved',
  declined: 'Declined',
  rejected: 'Not accepted',
  error: 'Not completed',
  refused: 'Not processed',
  unknown: 'No answer',
};

/** The headline of an answer; `approvedTitle` says what an approval means where it is shown ("Tab opened"). */
export function outcomeTitle(outcome: SaleOutcome, approvedTitle = TITLES.approved): string {
  if (outcome.kind === 'approved') return approvedTitle;
  if (isPossibleDuplicate(outcome)) return 'Possible duplicate';
  if (outcome.kind === 'unknown' && outcome.reason === 'in-progress') return 'Still processing';
  if (outcome.kind === 'unknown' && outcome.reason === 'unreachable') return 'Tender unreachable';
  return TITLES[outcome.kind];
}

/** Field names the engine's validation messages use, in the counter's words. */
const FIELD_WORDS: Record<string, string> = {
  exp_date: 'expiry date',
  csc: 'security code',
  order_number: 'order number',
  tip_amount: 'tip',
  server_id: 'server number',
  encrypted_track_data: 'swipe',
  track_format: 'swipe format',
};
const FIELD_NAMES = new RegExp(`\\b(${Object.keys(FIELD_WORDS).join('|')})\\b`, 'g');

/**
 * The engine's display_message for the counter: "Field Validation: exp_date month 13 is not 01 to
 * 12" becomes "Expiry date month 13 is not 01 to 12." Messages already written for cashiers pass
 * through unchanged.
 */
export function cashierWords(displayMessage: string): string {
  let text = displayMessage.trim().replace(/^Field Validation:\s*/i, '');
  text = text.replace(FIELD_NAMES, (field) => FIELD_WORDS[field] ?? field);
  text = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/**
 * The engine's cashier messages already end with what to do ("Ask for another card."); field checks
 * name only the problem, so the screen adds the step for those.
 */
function givesAdvice(message: string): boolean {
  return /[.!?]\s+\S/.test(message);
}

const NEXT_STEP_BY_ERROR_CODE: Record<string, string> = {
  '8000': 'Check the expiry date on the card and key it again, or ask for another card.',
  '8002': 'Check the card number and key it again, or swipe the card.',
  '8007': 'Check the security code: 3 digits on the back, or 4 on the front of American Express.',
  '8004': 'Correct the invoice or order number, then charge again.',
};

function nextStepFor(message: string, fallback: string, code?: string): string | undefined {
  if (givesAdvice(message)) return undefined;
  return (code && NEXT_STEP_BY_ERROR_CODE[code]) ?? fallback;
}

export function outcomeOfResponse(response: TransactionResponse): SaleOutcome {
  const message = cashierWords(response.display_message);
  switch (response.result) {
    case 'Approved':
      return {
        kind: 'approved',
        transactionId: response.id ?? '',
        authorizationCode: response.authorization_code ?? '',
        ...(response.avs_result_code && { avs: response.avs_result_code }),
        ...(response.csc_result_code && { csc: response.csc_result_code }),
      };
    case 'Declined': {
      const nextStep = nextStepFor(message, 'Ask for another card, or another way to pay.');
      return {
        kind: 'declined',
        message,
        ...(nextStep && { nextStep }),
        ...(response.id && { transactionId: response.id }),
      };
    }
    case 'Rejected': {
      // The engine's text for a duplicate is written for programs (a timestamp, a field to send). The
      // merchant's gateway may find one that this counter has no record of: then no id is named.
      if (response.error_code === POSSIBLE_DUPLICATE) {
        return {
          kind: 'rejected',
          message: response.duplicate_of
            ? `The same card paid the same amount moments ago (transaction #${response.duplicate_of}): this may be a duplicate.`
            : "The merchant's gateway says the same card paid the same amount moments ago: this may be a duplicate.",
          nextStep:
            'Nothing was charged. If the customer does mean to pay twice, start again and confirm when the screen asks.',
          errorCode: POSSIBLE_DUPLICATE,
          ...(response.duplicate_of && { duplicateOf: response.duplicate_of }),
        };
      }
      const nextStep = nextStepFor(
        message,
        'Check what was entered, then charge again.',
        response.error_code,
      );
      return {
        kind: 'rejected',
        message,
        ...(nextStep && { nextStep }),
        ...(response.error_code && { errorCode: response.error_code }),
        ...(response.duplicate_of && { duplicateOf: response.duplicate_of }),
      };
    }
    case 'Error': {
      const nextStep = nextStepFor(message, 'Nothing was charged. Try the sale again in a moment.');
      return {
        kind: 'error',
        message,
        ...(nextStep && { nextStep }),
        ...(response.id && { transactionId: response.id }),
      };
    }
  }
}

/** The engine's error_code for a possible duplicate charge. */
export const POSSIBLE_DUPLICATE = '8033';

/** A charge refused as a possible duplicate, which the cashier may confirm and send again. */
export function isPossibleDuplicate(
  outcome: SaleOutcome,
): outcome is Extract<SaleOutcome, { kind: 'rejected' }> {
  return outcome.kind === 'rejected' && outcome.errorCode === POSSIBLE_DUPLICATE;
}

/**
 * What Enter does on an answer: start the next sale after an approval, or after a charge refused as
 * a duplicate (the customer has paid); Check again when the outcome is unknown; try the same card
 * again after a failure that was not the card's (the processor, the engine); and otherwise ask for
 * another card. A card that already holds this sale (`holdsCard`: a tipped sale's AUTH whose capture
 * did not go through) takes no other card, so a new sale comes next, but never before Check again:
 * while the capture's answer is unknown, the sale may still be completed.
 */
export type NextAction = 'new-sale' | 'check-again' | 'try-again' | 'another-card';

/**
 * Whether an answer offers another try (Try again, Try another card): not once the customer paid,
 * possibly paid (a possible duplicate, which another card would charge a second time) or may have
 * paid (Check again), nor while the card is held for a tip.
 */
export function offersAnotherTry(outcome: SaleOutcome, holdsCard = false): boolean {
  return (
    outcome.kind !== 'approved' && outcome.kind !== 'unknown' && !holdsCard && !isPossibleDuplicate(outcome)
  );
}

export function nextAction(outcome: SaleOutcome, holdsCard = false): NextAction {
  if (outcome.kind === 'approved' || isPossibleDuplicate(outcome)) return 'new-sale';
  if (outcome.kind === 'unknown') return 'check-again';
  if (holdsCard) return 'new-sale';
  if (outcome.kind === 'error' || outcome.kind === 'refused') return 'try-again';
  return 'another-card';
}

const CHECK_AGAIN =
  'The card may or may not have been charged. Press Check again: the engine answers for this same sale, and never charges the card twice.';

/**
 * The engine's refusals that reach the screens through the host (a request a manager allowed), with
 * the status the API gives the same refusal: the cashier is told the same whichever way it went.
 */
const BRIDGE_REFUSAL_STATUS: Partial<Record<BridgeCallError['code'], number>> = {
  'in-progress': 409,
  'key-reused': 422,
};

/** An answer of the engine with an HTTP status: from the API, or the same refusal through the host. */
function engineRefusal(error: unknown): { status: number; message: string } | undefined {
  if (error instanceof TenderApiError) return { status: error.status, message: error.message };
  if (error instanceof BridgeCallError) {
    const status = BRIDGE_REFUSAL_STATUS[error.code];
    if (status !== undefined) return { status, message: error.message };
  }
  return undefined;
}

/** Whether `error` is the engine's own answer, shown as it is, rather than a failure to reach it. */
export function answeredByEngine(error: unknown): boolean {
  return engineRefusal(error) !== undefined;
}

export function outcomeOfFailure(error: unknown): SaleOutcome {
  const answer = engineRefusal(error);
  if (answer) {
    const refused = (nextStep: string): SaleOutcome => ({
      kind: 'refused',
      status: answer.status,
      message: cashierWords(answer.message),
      nextStep,
    });
    if (answer.status === 409) {
      return {
        kind: 'unknown',
        reason: 'in-progress',
        message: 'The payment engine is still working on this sale.',
        nextStep: 'Wait a moment, then press Check again.',
      };
    }
    if (answer.status === 401 || answer.status === 403) {
      return refused(
        'Nothing was done. If Tender just restarted, wait until the reader badge says ready and try again; if this repeats, restart Tender.',
      );
    }
    if (answer.status === 503) return refused('Tender is shutting down. Start it again, then charge again.');
    if (answer.status >= 500) return refused('Nothing was charged. Try the sale again.');
    return refused('Nothing was charged. Start a new sale; if this repeats, contact support.');
  }
  if (error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return {
      kind: 'unknown',
      reason: 'no-answer',
      message: 'The payment engine did not answer in time.',
      nextStep: CHECK_AGAIN,
    };
  }
  if (error instanceof TypeError) {
    return {
      kind: 'unknown',
      reason: 'unreachable',
      message: 'Tender could not reach its payment engine. Check that Tender is still running.',
      nextStep: CHECK_AGAIN,
    };
  }
  // The host's side of a request that needed a manager, or the bridge to it, could not be reached.
  if (error instanceof BridgeCallError && error.code === 'unavailable') {
    return { kind: 'unknown', reason: 'unreachable', message: error.message, nextStep: CHECK_AGAIN };
  }
  return {
    kind: 'unknown',
    reason: 'no-answer',
    message: "The payment engine's answer could not be read.",
    nextStep: CHECK_AGAIN,
  };
}
