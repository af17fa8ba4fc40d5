import type { Migration } from '../../migration';

/**
 * The ledger without its head lock: writes from different counters run at the same time, each
 * holding only the locks its rules need (docs/architecture.md, "Several counters on one store
 * server").
 *
 * - Transaction ids come from a sequence instead of the locked head, so they only grow; a write that
 *   is undone, or a counter that stops mid-write, may leave one unused.
 * - Deep pages of the id order no longer count on ids without a gap: `transaction_blocks` counts the
 *   transactions in each block of 4,096 ids, kept in the transaction of the rows it counts, so a page
 *   N rows from either end finds its block by summing a few hundred counts and steps at most one
 *   block's ids. Each writer (a counter's connection) counts in rows of its own, so no two writes
 *   ever wait for one counter row.
 * - A batch's counters, while it is open, are the sum of its shares in `batch_lanes`, each lane's
 *   share kept in one row per writer for the same reason; the close writes the sums into the batch's
 *   own row. `batch_totals` is each batch with its counters, whichever holds them.
 * - `tender_expect` fails the statement, with the SQLSTATE given, when what a write took for granted
 *   does not hold, so that a write sent without waiting for its answers fails in the database, where
 *   its COMMIT sees it, rather than in the counter's check of an answer after the commit.
 */
export const locksPerRule: Migration = {
  version: 11,
  description:
    'locks per rule instead of the ledger head: ids from a sequence, counted blocks, shares per writer',
  sql: `
      CREATE SEQUENCE transaction_ids AS bigint;
      SELECT setval('transaction_ids', GREATEST(last, 1), last > 0)
        FROM (SELECT GREATEST((SELECT last_transaction_id FROM ledger_head),
                              (SELECT COALESCE(max(id), 0) FROM transactions)) AS last) head;
      DROP TABLE ledger_head;

      CREATE TABLE transaction_blocks (
        block  bigint NOT NULL CHECK (block >= 0),
        writer text COLLATE "C" NOT NULL,
        rows   bigint NOT NULL CHECK (rows >= 0),
        PRIMARY KEY (block, writer)
      );
      INSERT INTO transaction_blocks (block, writer, rows)
        SELECT id / 4096, '', count(*) FROM transactions GROUP BY id / 4096;

      ALTER TABLE batch_lanes ADD COLUMN writer text COLLATE "C" NOT NULL DEFAULT '';
      ALTER TABLE batch_lanes DROP CONSTRAINT batch_lanes_pkey;
      ALTER TABLE batch_lanes ADD PRIMARY KEY (batch_id, lane, writer);

      -- A closed batch's counters are its own row's, written at its close; an open one's are the sum
      -- of its shares.
      CREATE VIEW batch_totals AS
        SELECT b.id, b.status, b.opened_at, b.settled_at, b.confirmation_code,
               CASE WHEN b.status = 'OPEN' THEN o.sales_count ELSE b.sales_count END AS sales_count,
               CASE WHEN b.status = 'OPEN' THEN o.sales_total ELSE b.sales_total END AS sales_total,
               CASE WHEN b.status = 'OPEN' THEN o.refund_count ELSE b.refund_count END AS refund_count,
               CASE WHEN b.status = 'OPEN' THEN o.refund_total ELSE b.refund_total END AS refund_total,
               CASE WHEN b.status = 'OPEN' THEN o.tip_total ELSE b.tip_total END AS tip_total
        FROM batches b
        LEFT JOIN LATERAL (
          SELECT COALESCE(sum(s.sales_count), 0)::integer AS sales_count,
                 COALESCE(sum(s.sales_total), 0)::bigint AS sales_total,
                 COALESCE(sum(s.refund_count), 0)::integer AS refund_count,
                 COALESCE(sum(s.refund_total), 0)::bigint AS refund_total,
                 COALESCE(sum(s.tip_total), 0)::bigint AS tip_total
          FROM batch_lanes s WHERE s.batch_id = b.id AND b.status = 'OPEN'
        ) o ON true;

      CREATE FUNCTION tender_expect(held boolean, code text, what text) RETURNS boolean LANGUAGE plpgsql AS $$
        BEGIN
          IF held IS NOT TRUE THEN RAISE EXCEPTION USING ERRCODE = code, MESSAGE = 'expected: ' || what; END IF;
          RETURN true;
        END
      $$;
    `,
};
