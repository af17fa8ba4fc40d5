/**
 * The bridge channels of the store-server setting: whether this counter keeps its own ledger or
 * writes to the store's PostgreSQL server, and as which lane. A change applies from the next start;
 * the server's password never crosses the bridge back to the screens.
 */
import { z } from 'zod';

const laneSchema = z.string().max(16);
/** The server as shown: its URL without the password. */
const shownServerSchema = z.string().max(2000);

const storeUseSchema = z.object({ server: shownServerSchema, lane: laneSchema }).nullable();

export const storeServerStateSchema = z.object({
  /** What this run uses; null when the counter keeps its own ledger. */
  running: storeUseSchema,
  /** What the setting says the next start uses; null for the counter's own ledger. */
  saved: storeUseSchema,
  /**
   * Set outside the screens for this run (TENDER_DATABASE and TENDER_LANE, or serve's --database
   * and --lane), which win over the saved setting; null when the setting decides.
   */
  setOutside: z.string().max(100).nullable(),
});
export type StoreServerState = z.infer<typeof storeServerStateSchema>;

const pinSchema = z.string().regex(/^\d{4,8}$/, 'must be 4 to 8 digits');

export const storeServerChannels = {
  'store-server:get': { input: z.undefined(), output: storeServerStateSchema },
  /** Saves the store server and lane for the next start, once the server answers. */
  'store-server:set': {
    input: z.strictObject({ database: z.string().max(2000), lane: laneSchema, pin: pinSchema.optional() }),
    output: storeServerStateSchema,
  },
  /** Goes back to the counter's own ledger from the next start. */
  'store-server:clear': {
    input: z.strictObject({ pin: pinSchema.optional() }),
    output: storeServerStateSchema,
  },
} as const;
