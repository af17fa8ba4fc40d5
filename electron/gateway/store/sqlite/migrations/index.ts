/**
 * The ledger's schema, one file per step (as Signal Desktop keeps its migrations), applied in the
 * order listed here.
 */
import type { Migration } from '../../migration';
import { ledger } from './0001-ledger';
import { swipeKsn } from './0002-swipe-ksn';
import { idempotencyKeys } from './0003-idempotency-keys';
import { auditLog } from './0004-audit-log';
import { cardHashAndLiveCaptures } from './0005-card-hash-and-live-captures';
import { staffAndCashiers } from './0006-staff-and-cashiers';
import { storeCardHashKey } from './0007-store-card-hash-key';
import { storeKeysSettingsStaff } from './0008-store-keys-settings-staff';
import { cashierListIndex } from './0009-cashier-list-index';
import { pinGates } from './0010-pin-gates';
import { locksPerRule } from './0011-locks-per-rule';
import { signaturesAndReceiptEmails } from './0012-signatures-and-receipt-emails';
import { gateway } from './0013-gateway';
import { noCardBin } from './0014-no-card-bin';
import { counterScreensKeys } from './0015-counter-screens-keys';

export type { Migration } from '../../migration';

export const MIGRATIONS: readonly Migration[] = [
  ledger,
  swipeKsn,
  idempotencyKeys,
  auditLog,
  cardHashAndLiveCaptures,
  staffAndCashiers,
  storeCardHashKey,
  storeKeysSettingsStaff,
  cashierListIndex,
  pinGates,
  locksPerRule,
  signaturesAndReceiptEmails,
  gateway,
  noCardBin,
  counterScreensKeys,
];

export const LATEST_SCHEMA_VERSION = MIGRATIONS.at(-1)?.version ?? 0;
