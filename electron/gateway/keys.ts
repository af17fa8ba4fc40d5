/**
 * API keys: generated, shown once, stored as a SHA-256 of their secret and compared in constant
 * time. A key reads `tender_<public id>_<secret>`; the public id finds the row without revealing
 * anything, the secret proves possession.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { isPermission, PERMISSIONS, type Permission } from '../../shared/api/permissions';
import { hasControlCharacter, NOT_CHARACTERS } from '../../shared/api/schemas';
import type { AdminStore } from './store/admin-store';
import type { ApiKeyRecord } from './store/key-rows';
import { CARD_NUMBER_IN_TEXT, holdsCardNumber } from './card-number-search';

/** Who acts when no API key does: someone at this computer, through the command line or the app. */
export const LOCAL_ADMINISTRATOR = 'local administrator';

const KEY_PATTERN = /^tender_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;
/**
 * Last-used times are for people; writing one per request would cost a commit per read (the store
 * server's gathers them further, see store/postgres/admin-store.ts).
 */
const LAST_USED_RESOLUTION_MS = 60_000;

export interface ApiKeyInfo {
  /** The public part of the key, which names it in lists and revocations. */
  id: string;
  /** The key's row id (the store's, on a store server), recorded with each transaction it makes. */
  recordId: number;
  name: string;
  permissions: Permission[];
  created: number;
  lastUsed: number | null;
  revoked: number | null;
  /**
   * Made for a counter's own screens: it acts only for whoever is signed in at the counter whose
   * engine made it, and for no one at any other counter of the store.
   */
  counterScreens: boolean;
}

export class InvalidKeyRequestError extends Error {}

export function parsePermissions(list: string): Permission[] {
  const names = list
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !isPermission(name));
  if (unknown.length > 0 || names.length === 0) {
    throw new InvalidKeyRequestError(
      `Unknown permission ${unknown.map((n) => `"${n}"`).join(', ') || '(none given)'}. Use a comma-separated list of: ${PERMISSIONS.join(', ')}.`,
    );
  }
  return [...new Set(names as Permission[])];
}

function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

function toInfo(record: ApiKeyRecord): ApiKeyInfo {
  return {
    id: record.publicId,
    recordId: record.id,
    name: record.name,
    permissions: record.permissions.filter(isPermission),
    created: record.createdAt,
    lastUsed: record.lastUsedAt,
    revoked: record.revokedAt,
    counterScreens: record.counterScreens,
  };
}

export class ApiKeys {
  constructor(
    private readonly store: AdminStore,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Creates a key and returns it in full, once committed: the only time it can be seen. A counter's
   * screens key is made only by the engine that hosts those screens (bridge/terminal.ts).
   */
  async create(
    name: string,
    permissions: readonly Permission[] = PERMISSIONS,
    actor: string = LOCAL_ADMINISTRATOR,
    { counterScreens = false }: { counterScreens?: boolean } = {},
  ): Promise<{ key: string; info: ApiKeyInfo }> {
    const trimmed = name.trim();
    if (!trimmed || trimmed.length > 100 || hasControlCharacter(trimmed) || NOT_CHARACTERS.test(trimmed))
      throw new InvalidKeyRequestError(
        'A key needs a name of 1 to 100 characters, without control characters.',
      );
    // The name is listed, shown and kept in the audit log: never a card number.
    if (holdsCardNumber(trimmed))
      throw new InvalidKeyRequestError(`A key's name must not hold ${CARD_NUMBER_IN_TEXT}.`);
    const publicId = randomBytes(8).toString('hex');
    const secret = randomBytes(32).toString('base64url');
    const record = await this.store.write(async (tx) => {
      const inserted = await tx.insertKey({
        publicId,
        secretHash: hashSecret(secret),
        name: trimmed,
        permissions,
        createdAt: this.now(),
        counterScreens,
      });
      await tx.appendAudit({
        at: inserted.createdAt,
        actor,
        action: 'key_create',
        subject: `key ${publicId} "${trimmed}"`,
        detail: counterScreens
          ? `${permissions.join(', ')}; a counter's screens key`
          : permissions.join(', '),
      });
      return inserted;
    });
    return { key: `tender_${publicId}_${secret}`, info: toInfo(record) };
  }

  /** The key's record when the presented text is a live key, otherwise undefined. */
  authenticate(presented: string): ApiKeyInfo | undefined {
    const match = KEY_PATTERN.exec(presented);
    const record = match ? this.store.findKey(match[1] as string) : undefined;
    const expected = record?.secretHash ?? hashSecret('no such key');
    const matches = timingSafeEqual(expected, hashSecret(match?.[2] ?? presented));
    if (!record || !matches || record.revokedAt !== null) return undefined;
    const now = this.now();
    if (record.lastUsedAt === null || now - record.lastUsedAt >= LAST_USED_RESOLUTION_MS) {
      this.store.touchKey(record.id, now);
      return toInfo({ ...record, lastUsedAt: now });
    }
    return toInfo(record);
  }

  list(): ApiKeyInfo[] {
    return this.store.keys().map(toInfo);
  }

  /** Revokes by public id (the middle part of the key) or by the whole key; settles once committed. */
  async revoke(idOrKey: string, actor: string = LOCAL_ADMINISTRATOR): Promise<ApiKeyInfo | undefined> {
    const publicId = KEY_PATTERN.exec(idOrKey)?.[1] ?? idOrKey;
    const record = await this.store.write(async (tx) => {
      const revoked = await tx.revokeKey(publicId, this.now());
      if (revoked) {
        await tx.appendAudit({
          at: revoked.revokedAt ?? this.now(),
          actor,
          action: 'key_revoke',
          subject: `key ${revoked.publicId} "${revoked.name}"`,
          detail: '',
        });
      }
      return revoked;
    });
    return record && toInfo(record);
  }
}
