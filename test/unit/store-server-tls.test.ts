/**
 * A counter reaches the store server over TLS with the URL the operations guide gives
 * (`sslmode=verify-full&sslrootcert=...`): the server's certificate must chain to the file named and
 * name the host the counter connects to.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoopbackCertificate } from '../../electron/gateway/crypto/certificate';
import { PostgresLedger } from '../../electron/gateway/store/postgres/ledger';
import { addRow } from '../support/ledger-rows';
import { startPostgresServer, type PostgresServer } from '../support/postgres-server';

let server: PostgresServer;
let dir: string;
let trusted: string;
let stranger: string;
let database: string;

beforeAll(async () => {
  // The loopback certificate names 127.0.0.1 and localhost, not 127.0.0.2.
  const identity = await createLoopbackCertificate();
  server = await startPostgresServer({ tls: identity });
  dir = mkdtempSync(join(tmpdir(), 'tender-store-ca-'));
  trusted = join(dir, 'store-ca.crt');
  writeFileSync(trusted, identity.certificatePem);
  stranger = join(dir, 'other-ca.crt');
  writeFileSync(stranger, (await createLoopbackCertificate()).certificatePem);
  database = new URL(await server.createDatabase()).pathname.slice(1);
});

afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const urlOf = (host: string, query: string) =>
  `postgresql://tender@${host}:${server.port}/${database}${query}`;

describe('TLS to the store server', () => {
  it('verify-full with the store’s certificate connects, and the ledger works over it', async () => {
    const ledger = await PostgresLedger.open({
      url: urlOf('localhost', `?sslmode=verify-full&sslrootcert=${trusted}`),
      lane: 'front',
    });
    try {
      const row = await ledger.write((write) => addRow(write));
      expect((await ledger.find(row.id))?.amount).toBe(2500);
    } finally {
      await ledger.close();
    }
  });

  it('a server whose certificate does not chain to the file named is refused', async () => {
    await expect(
      PostgresLedger.open({
        url: urlOf('127.0.0.1', `?sslmode=verify-full&sslrootcert=${stranger}`),
        lane: 'front',
      }),
    ).rejects.toThrow(/self-signed certificate/);
  });

  it('a server whose certificate does not name the host connected to is refused', async () => {
    await expect(
      PostgresLedger.open({
        url: urlOf('127.0.0.2', `?sslmode=verify-full&sslrootcert=${trusted}`),
        lane: 'front',
      }),
    ).rejects.toThrow(/does not match certificate's altnames/);
  });

  it('a counter without TLS is turned away by the server', async () => {
    await expect(PostgresLedger.open({ url: urlOf('127.0.0.1', ''), lane: 'front' })).rejects.toThrow(
      /pg_hba\.conf rejects connection .* no encryption/,
    );
  });
});
