/** The store server's failures as the engine names them (../store-errors.ts). */
import { isConnectionFailure, isPastTimeLimit, StoreBusyError, StoreUnreachableError } from './connection';

/** A lost server becomes a StoreUnreachableError, a statement past its time a StoreBusyError. */
export function asStoreError(error: unknown): unknown {
  if (isConnectionFailure(error)) return new StoreUnreachableError(error);
  return isPastTimeLimit(error) ? new StoreBusyError(error) : error;
}
