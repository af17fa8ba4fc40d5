/**
 * The payment processor setting for the screens: the simulator or the merchant's gateway, the
 * gateway's address, key, CA file and time limit, the offline limits, and Test connection. Every
 * change and every test needs a manager. The gateway's key goes one way: the screens are told only
 * whether one is kept, and a kept key is only ever sent to the kept address.
 */
import type { ManagerAction } from '../../shared/ipc/contract';
import type { ConnectionTest, ProcessorLine, ProcessorSettings } from '../../shared/ipc/processor-contract';
import { formatMoney } from '../../shared/money';
import type { Engine } from '../gateway/engine';
import { GatewayAccount } from '../gateway/processor/gateway-account';
import { endpointOf } from '../gateway/processor/upstream';
import { parseSetting, UnknownSettingError, type SettingName } from '../gateway/settings';
import { BridgeError, type BridgeHandlers } from './dispatch';

export type ProcessorChannel =
  'processor:get' | 'processor:update' | 'processor:test' | 'processor:line' | 'processor:acknowledge';

type LineEngine = Pick<Engine, 'settings' | 'upstream' | 'ledger' | 'now' | 'forwarder'>;

export interface PaymentProcessorOptions {
  engine: LineEngine;
  /** Refuses unless a manager allows it (signed in, or by this PIN); says who, as the audit log names them. */
  requirePin: (pin: string | undefined, action?: ManagerAction) => Promise<string>;
  /** Tells every screen the line as it is now, after a change made here. */
  announce?: () => void;
}

const instant = (epochMs: number) => new Date(epochMs).toISOString();

/**
 * The line to the gateway as every screen shows it: up or down, what waits to be forwarded (store-wide
 * on a store server), and the declined offline sales no manager has acknowledged yet.
 */
export async function processorLine(engine: LineEngine): Promise<ProcessorLine> {
  const { settings } = engine;
  const [waiting, declined] = await Promise.all([
    engine.ledger.forwards.summary(),
    engine.ledger.forwards.declined(),
  ]);
  return {
    processor: settings.get('processor'),
    line: engine.upstream.line.state,
    offlineEnabled: settings.get('offline_enabled'),
    offlineMaxAmountCents: settings.get('offline_max_amount'),
    waiting: {
      count: waiting.count,
      cents: waiting.cents,
      oldest: waiting.oldestAt === null ? null : instant(waiting.oldestAt),
    },
    declined: declined.map((each) => {
      const answer = JSON.parse(each.answer) as { display_message?: string };
      return {
        id: String(each.transactionId),
        amountCents: each.amount,
        at: instant(each.createdAt),
        lastFour: each.lastFour ?? '',
        email: each.email ?? '',
        message: (answer.display_message ?? '').slice(0, 500),
      };
    }),
  };
}

export function processorSettings(engine: Pick<LineEngine, 'settings'>): ProcessorSettings {
  const { settings } = engine;
  return {
    processor: settings.get('processor'),
    upstreamUrl: settings.get('upstream_url'),
    apiKeySet: settings.get('upstream_api_key') !== '',
    caFile: settings.get('upstream_ca_file'),
    timeoutSeconds: settings.get('upstream_timeout_seconds'),
    offlineEnabled: settings.get('offline_enabled'),
    offlineMaxAmountCents: settings.get('offline_max_amount'),
    offlineMaxTotalCents: settings.get('offline_max_total'),
    offlineMaxHours: settings.get('offline_max_hours'),
  };
}

const notSet = (message: string): ConnectionTest => ({ ok: false, problem: 'not set', message });

export function paymentProcessorHandlers(
  options: PaymentProcessorOptions,
): Pick<BridgeHandlers, ProcessorChannel> {
  const { engine } = options;
  const { settings } = engine;

  /** The value of a field as entered, or the refusal in words; undefined when it was not entered. */
  const entered = <K extends SettingName>(name: K, text: string | undefined) => {
    if (text === undefined) return undefined;
    const refusal = settings.refusal(name, text);
    if (refusal !== undefined) throw new BridgeError('invalid-input', refusal);
    return parseSetting(name, text);
  };

  return {
    'processor:get': () => processorSettings(engine),
    'processor:update': async (input) => {
      const actor = await options.requirePin(input.pin);
      const changes: [SettingName, string | undefined][] = [
        ['upstream_url', input.upstreamUrl],
        ['upstream_api_key', input.apiKey],
        ['upstream_ca_file', input.caFile],
        ['upstream_timeout_seconds', input.timeoutSeconds?.toString()],
        ['offline_enabled', input.offlineEnabled?.toString()],
        [
          'offline_max_amount',
          input.offlineMaxAmountCents === undefined ? undefined : formatMoney(input.offlineMaxAmountCents),
        ],
        [
          'offline_max_total',
          input.offlineMaxTotalCents === undefined ? undefined : formatMoney(input.offlineMaxTotalCents),
        ],
        ['offline_max_hours', input.offlineMaxHours?.toString()],
        ['processor', input.processor],
      ];
      // Every value is checked before any is written, so a bad one changes nothing.
      for (const [name, value] of changes) entered(name, value);
      try {
        // Only what changes is written: each write is an entry in the audit log.
        await settings.change(
          changes.flatMap(([name, value]) =>
            value !== undefined && settings.wouldChange(name, value) ? [[name, value] as const] : [],
          ),
          actor,
        );
      } catch (error) {
        if (error instanceof UnknownSettingError) throw new BridgeError('invalid-input', error.message);
        throw error;
      }
      options.announce?.();
      return processorSettings(engine);
    },
    'processor:line': () => processorLine(engine),
    'processor:acknowledge': async (input) => {
      const actor = await options.requirePin(input.pin, 'offline-decline');
      const id = Number(input.id);
      const seen = await engine.ledger.write(async (ledger) => {
        const acknowledged = await ledger.forwards.acknowledge(id, engine.now(), actor);
        if (acknowledged)
          await ledger.appendAudit({
            at: engine.now(),
            actor,
            action: 'offline_acknowledged',
            subject: `transaction ${id}`,
            detail: 'the decline of this offline sale was seen',
          });
        return acknowledged;
      });
      if (!seen)
        throw new BridgeError('refused', `Transaction ${id} is no declined offline sale waiting to be seen.`);
      options.announce?.();
      return processorLine(engine);
    },
    'processor:test': async (input) => {
      await options.requirePin(input.pin);
      const keptUrl = settings.get('upstream_url');
      const keptCaFile = settings.get('upstream_ca_file');
      const url = entered('upstream_url', input.upstreamUrl) ?? keptUrl;
      const caFile = entered('upstream_ca_file', input.caFile) ?? keptCaFile;
      const timeoutSeconds =
        entered('upstream_timeout_seconds', input.timeoutSeconds?.toString()) ??
        settings.get('upstream_timeout_seconds');
      if (url === '') return notSet("Enter the gateway's address first, ending in /rest/v1.");
      const typedKey = input.apiKey ?? '';
      let apiKey = typedKey;
      if (apiKey === '') {
        // The kept key goes only where it was given for, trusting only the certificates kept with it:
        // another address, or another CA file (one typed when none is kept too: more trusted than
        // the system's certificates), needs its key typed in.
        if (url !== keptUrl || caFile !== keptCaFile) {
          return notSet(
            "Enter the gateway's key to test this address or certificate file: the kept key is only ever sent to the kept address, trusting the kept certificates.",
          );
        }
        apiKey = settings.get('upstream_api_key');
        if (apiKey === '') return notSet("Enter the gateway's API key first.");
      }
      const account = new GatewayAccount(endpointOf({ url, apiKey, caFile, timeoutSeconds }));
      try {
        return await account.check();
      } finally {
        account.close();
      }
    },
  };
}

/**
 * Tells every screen when the line changes: the gateway going out of reach or coming back, and what
 * waits or was declined (as this counter's forwarder or, on a store server, another counter changes it).
 */
export class ProcessorLineWatch {
  #last = '';
  #timer: NodeJS.Timeout | undefined;
  readonly #check = () => void this.check();

  constructor(
    private readonly engine: LineEngine,
    private readonly emit: (line: ProcessorLine) => void,
    private readonly everyMs = 3_000,
  ) {}

  start(): void {
    this.engine.upstream.line.on('changed', this.#check);
    this.engine.forwarder.on('changed', this.#check);
    this.#timer = setInterval(this.#check, this.everyMs);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.engine.upstream.line.off('changed', this.#check);
    this.engine.forwarder.off('changed', this.#check);
  }

  /** Reads the line, and tells the screens when it is not what they were last told. */
  async check(): Promise<void> {
    let line: ProcessorLine;
    try {
      line = await processorLine(this.engine);
    } catch {
      // The store did not answer: the screens keep what they were told until the next check.
      return;
    }
    const text = JSON.stringify(line);
    if (text === this.#last) return;
    this.#last = text;
    this.emit(line);
  }
}
