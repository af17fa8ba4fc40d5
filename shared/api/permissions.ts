import { routesAllowedBy } from './routes';

/** What an API key may do. A key holds any set of these; new keys get all of them unless told. */
export const PERMISSIONS = [
  'transactions:write',
  'transactions:read',
  'batches:read',
  'batches:close',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** What a permission is for, where the routes it opens do not already say it. */
const PURPOSES: Record<Permission, string | undefined> = {
  'transactions:write': 'run sales, auths, captures, refunds and voids',
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
