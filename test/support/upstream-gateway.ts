/**
 * The merchant's hosted gateway for the tests: a second, real Tender engine in simulator mode on a
 * loopback port of its own, with its own data dir, certificate and API key, reached over real HTTPS
 * through a fault proxy (fault-proxy.ts) that the tests turn into a line that refuses, hangs, loses
 * answers, is slow, and comes back.
 */
import { afterAll, beforeAll } from 'vitest';
import { dataDirLayout } from '../../electron/gateway/paths';
import { dataDirIdentity, startFaultProxy, type FaultProxy } from './fault-proxy';
import { startTestGateway, type TestGateway } from './gateway';

export interface UpstreamGateway {
  /** The engine that plays the gateway, and a client of it to read what it recorded. */
  gateway: TestGateway;
  /** The line to it. */
  proxy: FaultProxy;
  /** The address the engine under test is given (upstream_url): the proxy's. */
  url: string;
  /** An API key of the gateway account, with every permission (upstream_api_key). */
  key: string;
  /** The gateway's certificate, which the engine under test trusts (upstream_ca_file). */
  caFile: string;
  close(): Promise<void>;
}

export interface UpstreamGatewayOptions {
  /** Tip support on the gateway account. */
  tips?: boolean;
  /** The gateway account's duplicate check, in minutes; off unless given. */
  duplicateWindowMinutes?: number;
}

export async function startUpstreamGateway(options: UpstreamGatewayOptions = {}): Promise<UpstreamGateway> {
  const gateway = await startTestGateway({
    ownLedger: true,
    ...(options.tips !== undefined && { tips: options.tips }),
    ...(options.duplicateWindowMinutes !== undefined && {
      duplicateWindowMinutes: options.duplicateWindowMinutes,
    }),
  });
  let proxy: FaultProxy;
  try {
    proxy = await startFaultProxy({ port: gateway.gateway.port, ...dataDirIdentity(gateway.dataDir) });
  } catch (error) {
    await gateway.close();
    throw error;
  }
  return {
    gateway,
    proxy,
    url: proxy.url,
    key: gateway.key,
    caFile: dataDirLayout(gateway.dataDir).certificate,
    close: async () => {
      await proxy.close();
      await gateway.close();
    },
  };
}

/** A gateway and its line for the enclosing describe block (or file), started before its first test. */
export function useUpstreamGateway(options: UpstreamGatewayOptions = {}): () => UpstreamGateway {
  let started: UpstreamGateway | undefined;
  beforeAll(async () => {
    started = await startUpstreamGateway(options);
  });
  afterAll(async () => {
    await started?.close();
    started = undefined;
  });
  return () => {
    if (!started) throw new Error('the upstream gateway is not running');
    return started;
  };
}
