/** What an API key may do. A key holds any set of these; new keys get all of them unless told. */
export const PERMISSIONS = [
  'transactions:write',
  'transactions:read',
  'batches:read',
  'batches:close',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const PERMISSION_MEANINGS: Record<Permission, string> = {
  'transactions:write': 'POST /transactions: run sales, auths, captures, refunds and voids.',
  'transactions:read': 'GET /transactions: list transactions.',
  'batches:read': 'GET /batches and GET /batches/open.',
  'batches:close': 'PUT /batches/open: close the open batch for settlement.',
};

export function isPermission(text: string): text is Permission {
  return (PERMISSIONS as readonly string[]).includes(text);
}
