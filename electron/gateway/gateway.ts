/**
 * Starting the engine for real: the data dir, its TLS identity, the ledger and the HTTPS server on
 * loopback. The Electron main process and `npm run gateway -- serve` both start it through here.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { createLoopbackCertificate, isCertificateFresh, type TlsIdentity } from './crypto/certificate';
import { writeFileAtomically } from './atomic-file';
import { claimDataDir, ledgerMatchesSeal, sealLedger, type LastStop } from './data-dir';
import type { Engine } from './engine';
import { openEngine, type OpenEngineOptions } from './open-store';
import { API_PREFIX, createApiServer, type ServerLimits } from './http/server';
import { dataDirLayout } from './paths';

export interface GatewayOptions {
  dataDir: string;
  /** Loopback port; 0 lets the system pick a free one. */
  port: number;
  /** Web origins allowed to call the API from a browser context (the desktop app's renderer). */
  allowedOrigins?: readonly string[];
  engine?: OpenEngineOptions;
  /** Timeouts and caps against slow or abusive clients; the defaults suit a counter. */
  limits?: Partial<ServerLimits>;
  /** Routes and listeners beside the API on the same origin (see ApiServerOptions.extend). */
  extend?: (app: FastifyInstance) => void | Promise<void>;
  /** The counter's suggested tip percentages, which the check of a tab prints; the defaults without. */
  tipPercentages?: () => readonly number[];
}

export interface RunningGateway {
  /** https://127.0.0.1:<port>/rest/v1 */
  readonly url: string;
  readonly port: number;
  /** PEM of the self-signed loopback certificate the server presents. */
  readonly certificatePem: string;
  readonly engine: Engine;
  /** True when the previous engine on this data dir did not stop cleanly and the ledger was checked. */
  readonly recoveredFromUncleanShutdown: boolean;
  /** How the ledger was checked before anything was served. */
  readonly ledgerCheck: LedgerCheck;
  close(): Promise<void>;
}

/** The data dir's certificate and key, made on first run and renewed before they lapse. */
export async function ensureTlsIdentity(dataDir: string): Promise<TlsIdentity> {
  const layout = dataDirLayout(dataDir);
  try {
    const identity = {
      certificatePem: readFileSync(layout.certificate, 'utf8'),
      privateKeyPem: readFileSync(layout.privateKey, 'utf8'),
    };
    if (isCertificateFresh(identity.certificatePem)) return identity;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const identity = await createLoopbackCertificate();
  mkdirSync(layout.tlsDir, { recursive: true, mode: 0o700 });
  writeFileAtomically(layout.privateKey, identity.privateKeyPem, 0o600);
  writeFileAtomically(layout.certificate, identity.certificatePem, 0o644);
  return identity;
}

/** Connections the kernel may hold for the engine before it accepts them: above the connection cap's burst. */
const LISTEN_BACKLOG = 4096;

export class LedgerDamagedError extends Error {
  constructor(dataDir: string, lastStop: LastStop, problems: readonly string[]) {
    super(
      `The ledger in ${dataDir} failed its integrity check${lastStop.clean ? '' : ' after an unclean shutdown'} ` +
        `(${problems.slice(0, 3).join('; ')}). Nothing was served. Restore the latest backup: ` +
        `npm run gateway -- restore --data-dir "${dataDir}" --from <backup file>.`,
    );
  }
}

/**
 * 'unchanged': byte for byte the ledger that the last engine checked and left at a clean stop.
 * 'full': SQLite's integrity and foreign-key checks over all of it, since nothing vouched for it (an
 * unclean stop, a ledger changed or restored while no engine served, the first start of this
 * version). 'new': made by this start. 'store server': the ledger is the store server's, which the
 * database server keeps; the data dir holds no ledger file to check.
 */
export type LedgerCheck = 'unchanged' | 'full' | 'new' | 'store server';

/**
 * Opens the data dir's engine and, when its ledger is the data dir's file, checks the file before
 * anything is served. The full check reads every index entry against its row, which takes seconds on
 * a large ledger; a ledger that a clean stop sealed is only hashed, which proves it is the very file
 * that passed the check at that stop.
 */
async function openCheckedLedger(
  dataDir: string,
  lastStop: LastStop,
  options: OpenEngineOptions | undefined,
): Promise<{ engine: Engine; ledgerCheck: LedgerCheck }> {
  const { database } = dataDirLayout(dataDir);
  const fileCheck: LedgerCheck = !existsSync(database)
    ? 'new'
    : lastStop.clean && lastStop.ledger && (await ledgerMatchesSeal(database, lastStop.ledger))
      ? 'unchanged'
      : 'full';
  let engine: Engine;
  try {
    engine = await openEngine(dataDir, options);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB')
      throw new LedgerDamagedError(dataDir, lastStop, [(error as Error).message]);
    throw error;
  }
  const file = engine.store.file;
  if (!file) return { engine, ledgerCheck: 'store server' };
  let problems: string[];
  try {
    problems = fileCheck === 'full' ? file.checkIntegrity() : [];
  } catch (error) {
    await engine.close();
    throw error;
  }
  if (problems.length > 0) {
    await engine.close();
    throw new LedgerDamagedError(dataDir, lastStop, problems);
  }
  return { engine, ledgerCheck: fileCheck };
}

/**
 * Closes the engine and seals the ledger file it leaves, after a quick check of every page: the next
 * start then needs only to see that the file is unchanged. A ledger that fails the check is not
 * sealed, so the next start checks it in full and refuses it, saying what to do. A ledger on a store
 * server is the database server's: nothing of the data dir is sealed.
 */
async function closeAndSeal(engine: Engine): Promise<LastStop> {
  const file = engine.store.file;
  const sound = file !== undefined && file.checkIntegrity('quick').length === 0;
  await engine.close();
  const ledger = file && sound ? await sealLedger(file.path) : undefined;
  return { clean: true, ...(ledger && { ledger }) };
}

export async function startGateway(options: GatewayOptions): Promise<RunningGateway> {
  const claim = claimDataDir(
    options.dataDir,
    options.engine?.nativeBinding ? { nativeBinding: options.engine.nativeBinding } : {},
  );
  let opened: { engine: Engine; ledgerCheck: LedgerCheck };
  try {
    // One engine serves a lane of a store server: a second one given the same lane is refused.
    opened = await openCheckedLedger(options.dataDir, claim.lastStop, {
      ...options.engine,
      servesLane: true,
    });
  } catch (error) {
    claim.release(claim.lastStop);
    throw error;
  }
  const { engine, ledgerCheck } = opened;
  try {
    const tls = await ensureTlsIdentity(options.dataDir);
    const server = await createApiServer({
      engine,
      tls: { key: tls.privateKeyPem, cert: tls.certificatePem },
      ...(options.allowedOrigins && { allowedOrigins: options.allowedOrigins }),
      ...(options.extend && { extend: options.extend }),
      ...(options.limits && { limits: options.limits }),
      ...(options.tipPercentages && { tipPercentages: options.tipPercentages }),
    });
    // Node's default backlog of 511 lets one program's burst of connects fill the kernel's accept
    // queue; a newcomer's connect is then dropped and tried again only a second later. The kernel
    // caps this at net.core.somaxconn (4096 on current Linux).
    await server.listen({ host: '127.0.0.1', port: options.port, backlog: LISTEN_BACKLOG });
    const port = (server.server.address() as AddressInfo).port;
    // Whatever was made offline goes on to the merchant's gateway by itself once it answers.
    engine.forwarder.start();
    let closing: Promise<void> | undefined;
    return {
      url: `https://127.0.0.1:${port}${API_PREFIX}`,
      port,
      certificatePem: tls.certificatePem,
      engine,
      recoveredFromUncleanShutdown: !claim.lastStop.clean,
      ledgerCheck,
      close: () =>
        (closing ??= server
          .close()
          .then(() => closeAndSeal(engine))
          .then(
            (stop) => claim.release(stop),
            (error: unknown) => {
              // Stopped, but not cleanly: the next start checks the ledger in full.
              claim.release({ clean: false });
              throw error;
            },
          )),
    };
  } catch (error) {
    await engine.close();
    claim.release(claim.lastStop);
    throw error;
  }
}
