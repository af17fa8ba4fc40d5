import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openDatabase, type Connection } from '../../electron/gateway/store/sqlite/database';
import { ReadCache } from '../../electron/gateway/store/sqlite/read-cache';

let dir: string;
let db: Connection;
let cache: ReadCache<string, string>;
let loads: number;
const read = (name: string) =>
  cache.get(name, (key) => {
    loads += 1;
    return (db.prepare('SELECT value FROM settings WHERE key = ?').get(key) as { value: string } | undefined)
      ?.value;
  });
const write = (name: string, value: string) =>
  db.prepare('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)').run(name, value);

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tender-cache-'));
  db = openDatabase(join(dir, 'ledger.db'));
  cache = new ReadCache(db);
  loads = 0;
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

it('answers from memory until another connection commits, from the next turn of the event loop', async () => {
  write('colour', 'red');
  expect(read('colour')).toBe('red');
  expect(read('colour')).toBe('red');
  expect(loads).toBe(1);

  const other = openDatabase(join(dir, 'ledger.db'));
  other.prepare("UPDATE settings SET value = 'blue' WHERE key = 'colour'").run();
  other.close();
  await nextTurn();
  expect(read('colour')).toBe('blue');
  expect(loads).toBe(2);
});

it("starts over when told of this connection's own write", () => {
  write('colour', 'red');
  expect(read('colour')).toBe('red');
  write('colour', 'green');
  cache.clear();
  expect(read('colour')).toBe('green');
});

it('keeps nothing read inside a transaction that is rolled back', () => {
  write('colour', 'red');
  expect(() =>
    db.transaction(() => {
      write('colour', 'green');
      cache.clear();
      expect(read('colour')).toBe('green');
      throw new Error('the audit entry failed');
    })(),
  ).toThrow('the audit entry failed');
  expect(read('colour')).toBe('red');
});

it('remembers that a key is missing, without growing past its bound', () => {
  expect(read('nothing here')).toBeUndefined();
  expect(read('nothing here')).toBeUndefined();
  expect(loads).toBe(1);
  for (let i = 0; i < 1000; i++) read(`probe ${i}`);
  // The bound made it start over along the way, so the first miss is read again.
  const before = loads;
  read('nothing here');
  expect(loads).toBe(before + 1);
});
