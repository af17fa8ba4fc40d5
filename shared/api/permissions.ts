import { routesAllowedBy } from './routes';
import { parseTransactionType, type TransactionType } from './transaction-types';

/** What an API key may do. A key holds any set of these; new keys get all of them unless told. */
export const PERMISSIONS = [
  'transactions:write',
  'transactions:sale',
  'transactions:refund',
  'transactions:void',
  'transactions:read',
  'batches:read',
  'batches:close',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/**
 * The narrower permission each transaction type needs when the key lacks `transactions:write`,
 * which keeps meaning every type. A key's permissions are its approval: one holding
 * `transactions:refund` refunds without a manager's PIN, so the screens' own key never holds it.
 */
export const TYPE_PERMISSIONS = {
  SALE: 'transactions:sale',
  AUTH: 'transactions:sale',
  'FORCED SALE': 'transactions:sale',
  CAPTURE: 'transactions:sale',
  REFUND: 'transactions:refund',
  VOID: 'transactions:void',
} as const satisfies Record<TransactionType, Permission>;

/** What a permission is for, where the routes it opens do not already say it. */
const PURPOSES: Record<Permission, string | undefined> = {
  'transactions:write':
    'run every type (sales, auths, captures, refunds and voids) and charge a card again past a possible duplicate (duplicate_override)',
  'transactions:sale': 'run SALE, AUTH, FORCED SALE and CAPTURE only, never past a possible duplicate',
  'transactions:refund': 'run REFUND (matched and unmatched) only',
  'transactions:void': 'run VOID only',
  'transactions:read': 'list transactions and read their receipts',
  'batches:read': undefined,
  'batches:close': 'close the open batch for settlement',
};

function meaningOf(permission: Permission): string {
  const routes = routesAllowedBy(permission)
    .map((route) => `${route.method} ${route.path}`)
    .join(' and ');
  const purpose = PURPOSES[permission];
  return purpose === undefined ? `${routes}.` : `${routes}: ${purpose}.`;
}

/** Each permission as the settings screen explains it: the routes it opens, then what for. */
export const PERMISSION_MEANINGS = Object.fromEntries(
  PERMISSIONS.map((permission) => [permission, meaningOf(permission)]),
) as Record<Permission, string>;

export function isPermission(text: string): text is Permission {
  return (PERMISSIONS as readonly string[]).includes(text);
}

/** Whether a body's duplicate_override asks to charge past a possible duplicate (JSON true, or "true"). */
export function asksDuplicateOverride(value: unknown): boolean {
  return value === true || (typeof value === 'string' && value.toLowerCase() === 'true');
}

/**
 * What only a manager may allow at the counter, which the screens' own key cannot send: a refund, a
 * void, a charge past a possible duplicate.
 */
export function needsManager(body: { type?: unknown; duplicate_override?: unknown }): boolean {
  const type = typeof body.type === 'string' ? parseTransactionType(body.type) : undefined;
  return type === 'REFUND' || type === 'VOID' || asksDuplicateOverride(body.duplicate_override);
}

/** A 403's words: the permissions of which the key holds none (any one would do), and what needs them. */
export function lacksPermission(accepted: readonly Permission[], neededBy?: string): string {
  return `This API key lacks the ${accepted.join(' or ')} permission${neededBy ? `, which ${neededBy} needs` : ''}.`;
}

/**
 * Whether a key holding `held` may run a transaction of `type`, past the duplicate check or not;
 * when not, every permission that would allow it, so a refusal names each way to be allowed.
 */
export function mayRun(
  held: readonly Permission[],
  type: TransactionType,
  duplicateOverride: boolean,
): { ok: true } | { ok: false; accepted: readonly Permission[] } {
  const accepted: readonly Permission[] = duplicateOverride
    ? ['transactions:write']
    : ['transactions:write', TYPE_PERMISSIONS[type]];
  return accepted.some((one) => held.includes(one)) ? { ok: true } : { ok: false, accepted };
}
