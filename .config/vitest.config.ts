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
    testTimeout: 20_000,
    hookTimeout: 30_000,
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
