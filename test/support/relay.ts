/**
 * An engine under test with `processor` `upstream`, relaying to the tests' gateway (a second engine
 * behind the fault proxy, upstream-gateway.ts), on the run's store; and what the tests need to read
 * on both sides.
 */
import { afterEach, beforeEach } from 'vitest';
import { nextKsnCounter, simulatedSwipeString, type TestCard } from '../../electron/reader/simulator';
import type { TransactionListItem } from '../../shared/api/schemas';
import { startTestGateway, type TestGateway, type TestGatewayOptions } from './gateway';
import { useUpstreamGateway, type UpstreamGateway, type UpstreamGatewayOptions } from './upstream-gateway';

export interface RelayOptions extends Pick<TestGatewayOptions, 'tips' | 'duplicateWindowMinutes' | 'engine'> {
  /** Store and forward on (offline_enabled). */
  offline?: boolean;
  /** upstream_timeout_seconds: 2 by default, so that a lost answer is settled within seconds. */
  timeoutSeconds?: number;
  /** Further settings, as name and text. */
  settings?: [string, string][];
}

/**
 * The settings, as name and text, that make an engine relay to `upstream`: its address, key and
 * certificate, the time limit, store and forward on or off, then `settings`, with the processor
 * switched last.
 */
export function relaySettings(
  upstream: UpstreamGateway,
  options: Pick<RelayOptions, 'offline' | 'timeoutSeconds' | 'settings'> = {},
): [string, string][] {
  return [
    ['upstream_url', upstream.url],
    ['upstream_api_key', upstream.key],
    ['upstream_ca_file', upstream.caFile],
    ['upstream_timeout_seconds', String(options.timeoutSeconds ?? 2)],
    ['offline_enabled', String(options.offline ?? false)],
    ...(options.settings ?? []),
    ['processor', 'upstream'],
  ];
}

/** Starts the engine under test relaying to `upstream`. */
export async function startRelay(
  upstream: UpstreamGateway,
  options: RelayOptions = {},
): Promise<TestGateway> {
  const { offline, timeoutSeconds, settings, ...gatewayOptions } = options;
  const t = await startTestGateway(gatewayOptions);
  try {
    await t.gateway.engine.settings.change(relaySettings(upstream, { offline, timeoutSeconds, settings }));
  } catch (error) {
    await t.close();
    throw error;
  }
  return t;
}

/** What useRelayEachTest gives the tests of its block. */
export interface RelayEachTest {
  /** The gateway and its line, one for the whole block. */
  upstream: () => UpstreamGateway;
  /** The engine under test: a new one for each test, relaying to the gateway. */
  relay: () => TestGateway;
  /** The engine's list item of the transaction it knows by `id`. */
  item: (id: string | undefined) => Promise<TransactionListItem>;
  /** The engine's clock: real time plus `offset`, which each test starts at 0 and may push forward. */
  clock: { offset: number };
}

/**
 * For the enclosing describe block (or file): a gateway behind its line, started before the first
 * test, and for each test a new engine relaying to it with the clock of `clock`. After each test the
 * line is put back up with no faults, and the engine is closed.
 */
export function useRelayEachTest(
  options: { upstream?: UpstreamGatewayOptions; relay?: Omit<RelayOptions, 'engine'> } = {},
): RelayEachTest {
  const upstream = useUpstreamGateway(options.upstream);
  const clock = { offset: 0 };
  let t: TestGateway | undefined;
  beforeEach(async () => {
    clock.offset = 0;
    t = await startRelay(upstream(), {
      ...options.relay,
      engine: { now: () => Date.now() + clock.offset },
    });
  });
  afterEach(async () => {
    upstream().proxy.clearFaults();
    await upstream().proxy.line('up');
    await t?.close();
    t = undefined;
  });
  const relay = (): TestGateway => {
    if (!t) throw new Error('no engine under test');
    return t;
  };
  const item = async (id: string | undefined): Promise<TransactionListItem> => {
    const [found] = await relay().client.listTransactions({ id: id ?? '' });
    if (!found) throw new Error(`no transaction ${id}`);
    return found;
  };
  return { upstream, relay, item, clock };
}

/** A random start, so that test files running at once on one store server use different KSNs. */
let ksnCounter = nextKsnCounter(Math.floor(Math.random() * 1_000_000));

/** A swipe of `card` with a KSN not used before in this run, encrypted as the simulator reader does. */
export function swipe(card: TestCard): { encrypted_track_data: string; track_format: string } {
  ksnCounter = nextKsnCounter(ksnCounter);
  return {
    encrypted_track_data: simulatedSwipeString(card, { counter: ksnCounter }),
    track_format: 'MAGTEK',
  };
}

/** The gateway's list item of the transaction it knows by `id`. */
export async function atGateway(upstream: UpstreamGateway, id: string): Promise<TransactionListItem> {
  const [item] = await upstream.gateway.client.listTransactions({ id });
  if (!item) throw new Error(`the gateway has no transaction ${id}`);
  return item;
}

/** The POSTs of transactions that went through the line since `from` (an index into proxy.seen). */
export function postsSince(
  upstream: UpstreamGateway,
  from: number,
): { body: Record<string, unknown>; fate: string }[] {
  return upstream.proxy.seen
    .slice(from)
    .filter((request) => request.method === 'POST' && request.path.startsWith('/rest/v1/transactions'))
    .map((request) => ({ body: JSON.parse(request.body) as Record<string, unknown>, fate: request.fate }));
}

const HELD = Symbol('held at the line');

/**
 * Waits until the line holds a request that arrived since `from` (an index into proxy.seen), which
 * `sent` made. When the engine answers `sent` before any request is held, that answer is the failure:
 * the engine decided without the gateway, and the test says what it answered.
 */
export async function heldAtTheLine(
  upstream: UpstreamGateway,
  sent: Promise<unknown>,
  from: number,
): Promise<void> {
  const held = upstream.proxy.waitFor((request) => request.fate === 'hold', from).then(() => HELD);
  // Should the answer win, the wait for the hold is not waited for.
  held.catch(() => undefined);
  const first = await Promise.race([held, sent]);
  if (first === HELD) return;
  const { status, body } = (first ?? {}) as { status?: number; body?: string };
  const said = body === undefined ? JSON.stringify(first) : `${status} ${body}`;
  throw new Error(`the engine answered before anything reached the gateway: ${said}`);
}
