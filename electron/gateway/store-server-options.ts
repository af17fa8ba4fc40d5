/**
 * The two settings that put a counter's ledger on the store server, as the command line
 * (`--database`, `--lane`) and the desktop app (TENDER_DATABASE, TENDER_LANE) take them: given
 * together or not at all, checked before anything starts.
 */
import type { StoreServerOptions } from './open-store';

/** A counter's name in the store: 1 to 16 letters, digits or hyphens. */
const LANE_NAME = /^[A-Za-z0-9-]{1,16}$/;

export class StoreServerSettingError extends Error {}

/**
 * The store server and this counter's lane, or undefined when neither is set. `names` says how the
 * person gave them, so the error names what to change.
 */
export function storeServerOptions(
  values: { database?: string | undefined; lane?: string | undefined },
  names: { database: string; lane: string },
): StoreServerOptions | undefined {
  const database = values.database?.trim() || undefined;
  const lane = values.lane?.trim() || undefined;
  if (database === undefined && lane === undefined) return undefined;
  if (database === undefined)
    throw new StoreServerSettingError(
      `${names.lane} needs ${names.database} <postgres URL>: the store server the lane writes to.`,
    );
  if (lane === undefined)
    throw new StoreServerSettingError(
      `${names.database} needs ${names.lane} <name>: this counter's name in the store, such as counter-2.`,
    );
  if (!/^postgres(ql)?:\/\//.test(database))
    throw new StoreServerSettingError(
      `${names.database} must be a postgresql:// URL, such as postgresql://tender@store-server.lan/tender.`,
    );
  if (!LANE_NAME.test(lane))
    throw new StoreServerSettingError(
      `${names.lane} must be 1 to 16 letters, digits or hyphens, not "${lane}".`,
    );
  return { url: database, lane };
}
