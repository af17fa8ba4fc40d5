import { configDefaults, defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The tests of the store server itself, which start servers and engines of their own. */
const STORE_SERVER_TESTS = 'test/api/store-server*.test.ts';

/**
 * Four projects, each of its name in the report: the unit and browser tests; the API suite with the
 * ledger in the data dir's SQLite file (api-sqlite) and again on a real PostgreSQL store server
 * (api-postgres, which starts one server for the run); and the store server's own API tests. Run one
 * with `--project <name>`.
 */
export default defineConfig({
  root,
  test: {
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
    environment: 'node',
    pool: 'forks',
    // CI runs on a busy two-core machine: a test waits for the state it needs, never a fixed time, and
    // these limits only stop one that would never get there. They are far above any test's own pace,
    // so load makes a test slower, never a failure; how fast anything is, npm run bench measures.
    testTimeout: 180_000,
    hookTimeout: 300_000,
    expect: { poll: { timeout: 60_000, interval: 50 } },
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/unit/**/*.test.ts', 'test/e2e/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'api-sqlite',
          include: ['test/api/**/*.test.ts'],
          exclude: [...configDefaults.exclude, STORE_SERVER_TESTS],
          env: { TENDER_TEST_STORE: 'sqlite' },
        },
      },
      {
        extends: true,
        test: {
          name: 'api-postgres',
          include: ['test/api/**/*.test.ts'],
          exclude: [...configDefaults.exclude, STORE_SERVER_TESTS],
          env: { TENDER_TEST_STORE: 'postgres' },
          globalSetup: ['test/support/postgres-setup.ts'],
        },
      },
      {
        extends: true,
        test: { name: 'store-server', include: [STORE_SERVER_TESTS], env: { TENDER_TEST_STORE: 'sqlite' } },
      },
    ],
  },
});
