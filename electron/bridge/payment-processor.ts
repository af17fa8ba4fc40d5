/**
 * The payment processor setting for the screens: the simulator or the merchant's gateway, the
 * gateway's address, key, CA file and time limit, the offline limits, and Test connection. Every
 * change and every test needs a manager. The gateway's key goes one way: the screens are told only
 * whether one is kept, and a kept key is only ever sent to the kept address.
 */
import type { ConnectionTest, ProcessorSettings } from '../../shared/ipc/processor-contract';
import { formatMoney } from '../../shared/money';
import type { Engine } from '../gateway/engine';
import { GatewayAccount } from '../gateway/processor/gateway-account';
import { endpointOf } from '../gateway/processor/upstream';
import { parseSetting, UnknownSettingError, type SettingName } from '../gateway/settings';
import { BridgeError, type BridgeHandlers } from './dispatch';

export type ProcessorChannel = 'processor:get' | 'processor:update' | 'processor:test';

export interface PaymentProcessorOptions {
  engine: Pick<Engine, 'settings'>;
  /** Refuses unless a manager allows it (signed in, or by this PIN); says who, as the audit log names them. */
  requirePin: (pin: string | undefined) => Promise<string>;
}

export function processorSettings(engine: Pick<Engine, 'settings'>): ProcessorSettings {
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
      return processorSettings(engine);
    },
    'processor:test': async (input) => {
      await options.requirePin(input.pin);
      const keptUrl = settings.get('upstream_url');
      const url = entered('upstream_url', input.upstreamUrl) ?? keptUrl;
      const caFile = entered('upstream_ca_file', input.caFile) ?? settings.get('upstream_ca_file');
      const timeoutSeconds =
        entered('upstream_timeout_seconds', input.timeoutSeconds?.toString()) ??
        settings.get('upstream_timeout_seconds');
      if (url === '') return notSet("Enter the gateway's address first, ending in /rest/v1.");
      const typedKey = input.apiKey ?? '';
      let apiKey = typedKey;
      if (apiKey === '') {
        if (url !== keptUrl) {
          return notSet(
            "Enter the gateway's key to test this address: the kept key is only ever sent to the kept address.",
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
