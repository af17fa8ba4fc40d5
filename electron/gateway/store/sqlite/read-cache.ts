/**
 * Rows that every request reads and almost nothing changes (API keys, settings), kept in memory.
 *
 * Reading them from SQLite on every request cost a tenth of a SALE under load. The engine is not
 * their only writer, though: the command line changes keys and settings from another process while
 * the engine runs, and a revoked key must stop working at once. So before answering from memory the
 * cache asks SQLite's `data_version`, which changes exactly when another connection has committed,
 * and starts over if it did; this connection's own writes start it over through `clear()`. Nothing
 * is kept from inside a transaction, which may still roll back.
 */
import type Database from 'better-sqlite3';
import type { Connection } from './database';

/** Beyond this many entries the cache starts over, so lookups of unknown keys cannot grow it. */
const MAX_ENTRIES = 256;

/**
 * A connection's `data_version`, read at most once per turn of the event loop: every request
 * handled in one turn shares the answer. Each read is a read transaction of its own, and right after
 * a commit that costs as much as the row it guards. A commit by another process lands between two
 * turns at the latest, which for a person revoking a key is at once.
 */
class DataVersion {
  private readonly statement: Database.Statement<[], number>;
  private value = 0;
  private fresh = false;

  constructor(db: Connection) {
    this.statement = db.prepare<[], number>('PRAGMA data_version').pluck();
  }

  current(): number {
    if (!this.fresh) {
      this.value = this.statement.get() as number;
      this.fresh = true;
      setImmediate(() => {
        this.fresh = false;
      }).unref();
    }
    return this.value;
  }
}

const dataVersions = new WeakMap<Connection, DataVersion>();

function dataVersionOf(db: Connection): DataVersion {
  let version = dataVersions.get(db);
  if (!version) {
    version = new DataVersion(db);
    dataVersions.set(db, version);
  }
  return version;
}

export class ReadCache<Key, Value> {
  private readonly entries = new Map<Key, Value | undefined>();
  private readonly dataVersion: DataVersion;
  private seenVersion: number | undefined;

  constructor(private readonly db: Connection) {
    this.dataVersion = dataVersionOf(db);
  }

  /** The value for `key`, from memory while no other connection has committed, else from `load`. */
  get(key: Key, load: (key: Key) => Value | undefined): Value | undefined {
    if (this.db.inTransaction) return load(key);
    const version = this.dataVersion.current();
    if (version !== this.seenVersion) {
      this.entries.clear();
      this.seenVersion = version;
    }
    if (this.entries.has(key)) return this.entries.get(key);
    const value = load(key);
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(key, value);
    return value;
  }

  /** Forgets everything: call it after every write of the rows cached. */
  clear(): void {
    this.entries.clear();
  }
}
