/**
 * Starting the engine for real: the data dir, its TLS identity, the ledger and the HTTPS server on
 * loopback. The Electron main process and `npm run gateway -- serve` both start it through here.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { createLoopbackCertificate, isCertificateFresh, type TlsIdentity } from './crypto/certificate';
import { writeFileAtomically } from './atomic-file';
import { claimDataDir } from './data-dir';
import { Engine, type EngineOptions } from './engine';
import { API_PREFIX, createApiServer, type ServerLimits } from './http/server';
import { dataDirLayout } from './paths';

export interface GatewayOptions {
  dataDir: string;
  /** Loopback port; 0 lets the system pick a free one. */
  port: number;
  /** Web origins allowed to call the API from a browser context (the desktop app's renderer). */
  allowedOrigins?: readonly string[];
  engine?: EngineOptions;
  /** Timeouts and caps against slow or abusive clients; the defaults suit a counter. */
  limits?: Partial<ServerLimits>;
  /** Routes and listeners beside the API on the same origin (see ApiServerOptions.extend). */
  extend?: (app: FastifyInstance) => void | Promise<void>;
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

export class LedgerDamagedError extends Error {}

export async function startGateway(options: GatewayOptions): Promise<RunningGateway> {
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const claim = claimDataDir(options.dataDir);
  let engine: Engine;
  try {
    engine = Engine.open(options.dataDir, options.engine);
  } catch (error) {
    claim.release();
    throw error;
  }
  try {
    if (claim.unclean) {
      const problems = engine.checkIntegrity();
      if (problems.length > 0) {
        throw new LedgerDamagedError(
          `The ledger in ${options.dataDir} failed its integrity check after an unclean shutdown ` +
            `(${problems.slice(0, 3).join('; ')}). Nothing was served. Restore the latest backup: ` +
            'npm run gateway -- restore --data-dir <dir> --from <backup file>.',
        );
      }
    }
    const tls = await ensureTlsIdentity(options.dataDir);
    const server = await createApiServer({
      engine,
      tls: { key: tls.privateKeyPem, cert: tls.certificatePem },
      ...(options.allowedOrigins && { allowedOrigins: options.allowedOrigins }),
      ...(options.extend && { extend: options.extend }),
      ...(options.limits && { limits: options.limits }),
    });
    await server.listen({ host: '127.0.0.1', port: options.port });
    const port = (server.server.address() as AddressInfo).port;
    let closing: Promise<void> | undefined;
    return {
      url: `https://127.0.0.1:${port}${API_PREFIX}`,
      port,
      certificatePem: tls.certificatePem,
      engine,
      recoveredFromUncleanShutdown: claim.unclean,
      close: () =>
        (closing ??= server
          .close()
          .then(() => engine.close())
          .finally(() => claim.release())),
    };
  } catch (error) {
    await engine.close();
    claim.release();
    throw error;
  }
}
