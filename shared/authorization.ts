/**
 * When a tab's authorization expires: auth_expiry_days after its approval, as the engine refuses its
 * capture and the screens tell the cashier. Used alike by the engine and the cashier's screens.
 */

const DAY_MS = 86_400_000;

/** When an authorization expires: the expiry the merchant set (auth_expiry_days) after its approval. */
export function authorizationExpiresAt(auth: { createdAt: number }, expiryDays: number): number {
  return auth.createdAt + expiryDays * DAY_MS;
}

/** True once an authorization is older than the expiry the merchant set: it can no longer be captured. */
export function isAuthorizationExpired(
  auth: { createdAt: number },
  expiryDays: number,
  now: number,
): boolean {
  return now > authorizationExpiresAt(auth, expiryDays);
}
