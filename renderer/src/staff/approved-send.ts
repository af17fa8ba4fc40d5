/**
 * The requests only a manager may allow: a refund, a void, a charge past a possible duplicate. The
 * screens' own key cannot send them, so they go to the host with the manager's PIN (none when a
 * manager is signed in), which runs that one request in the engine. A refusal of the approval means
 * nothing was sent to the engine; it is told as such, never as an answer that may be lost.
 */
import type { TransactionRequestBody, TransactionResponse } from '../../../shared/api/schemas';
import type { TenderBridge } from '../../../shared/ipc/contract';
import { BridgeCallError } from '../../../shared/ipc/facade';
import type { SaleOutcome } from '../payment/outcome';

export function sendApproved(
  bridge: TenderBridge,
  request: TransactionRequestBody,
  idempotencyKey: string,
  pin: string | undefined,
): Promise<TransactionResponse> {
  return bridge.invoke('counter:approved-transaction', {
    request: request as Record<string, unknown>,
    idempotencyKey,
    ...(pin !== undefined && { pin }),
  });
}

/**
 * The host or the engine refused the request itself: no manager allowed it, or the counter is locked.
 * The engine's answers about its idempotency key (still being answered, or used for another request)
 * are not refusals of the approval: outcomeOfFailure tells them as the API's 409 and 422 are told, so
 * a request still being answered stays unknown, with Check again, and is kept in the journal.
 */
export function approvalRefusal(error: unknown): SaleOutcome | undefined {
  if (!(error instanceof BridgeCallError)) return undefined;
  if (!['pin-required', 'wrong-pin', 'refused', 'invalid-input'].includes(error.code)) return undefined;
  return {
    kind: 'refused',
    status: 403,
    message: error.message,
    nextStep: 'Nothing was done. Ask a manager to allow it, then try again.',
  };
}
