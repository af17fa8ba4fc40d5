/**
 * The API suite's store server when it runs on PostgreSQL (vitest's globalSetup of the api-postgres
 * project): one real server for the whole run, and in it a database migrated to the newest schema
 * that every test gateway's database is copied from (CREATE DATABASE ... TEMPLATE takes milliseconds,
 * where migrating each new database would take far longer).
 */
import type { TestProject } from 'vitest/node';
import { PostgresLedger } from '../../electron/gateway/store/postgres/ledger';
import { startPostgresServer, TEMPLATE_DATABASE, type PostgresServer } from './postgres-server';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The suite's store server: a URL of its `postgres` database as the superuser. */
    storeServerAdminUrl: string;
  }
}

let server: PostgresServer | undefined;

export async function setup(project: TestProject): Promise<void> {
  // Two test files at once, each with a few engines of two pools apiece, and the harness's own.
  server = await startPostgresServer({ maxConnections: 300 });
  const url = await server.createDatabase(TEMPLATE_DATABASE);
  const ledger = await PostgresLedger.open({ url, lane: 'template' });
  await ledger.cardHashKey();
  await ledger.close();
  project.provide('storeServerAdminUrl', server.url('postgres'));
}

export async function teardown(): Promise<void> {
  await server?.close();
}
