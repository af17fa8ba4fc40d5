/**
 * The store-server setting for the screens: which ledger this counter uses, and a manager's change
 * of it for the next start. A server is saved only once it answers, and a lane only while no other
 * counter is serving it there, so a typing mistake or a lane given twice is caught at the counter
 * rather than at the next morning's start. The change is in the audit log.
 */
import type { StoreServerState } from '../../shared/ipc/store-server-contract';
import type { Engine } from '../gateway/engine';
import type { StoreServerOptions } from '../gateway/open-store';
import {
  readStoreServerFile,
  shownStoreServer,
  STORE_SERVER_FIELD_NAMES,
  writeStoreServerFile,
} from '../gateway/store-server-file';
import { StoreServerSettingError, storeServerOptions } from '../gateway/store-server-options';
import { probeStoreServer } from '../gateway/store/postgres/probe';
import { BridgeError, type BridgeHandlers } from './dispatch';

export type StoreServerChannel = 'store-server:get' | 'store-server:set' | 'store-server:clear';

/** Where this run's store server came from. */
export interface RunningStore {
  options: StoreServerOptions;
  /** How it was given outside the screens ("TENDER_DATABASE and TENDER_LANE"); undefined: the setting. */
  setOutside?: string;
}

export interface StoreServerSettingOptions {
  dataDir: string;
  engine: Pick<Engine, 'admin' | 'now'>;
  /** The store server this run uses, if any. */
  running: RunningStore | undefined;
  /** Passes when a manager allows the change, with who the audit log names for it. */
  requirePin: (pin: string | undefined) => Promise<string>;
  /**
   * Checks that a server answers before it is saved, and with `lane`, that no engine serves that lane
   * there now; the real server by default.
   */
  probe?: (url: string, lane?: string) => Promise<void>;
}

const shown = (store: StoreServerOptions | undefined) =>
  store ? { server: shownStoreServer(store.url), lane: store.lane } : null;

export function storeServerHandlers(
  options: StoreServerSettingOptions,
): Pick<BridgeHandlers, StoreServerChannel> {
  const probe = options.probe ?? probeStoreServer;

  const state = (): StoreServerState => {
    let saved: StoreServerOptions | undefined;
    try {
      saved = readStoreServerFile(options.dataDir);
    } catch (error) {
      throw new BridgeError('unavailable', (error as Error).message);
    }
    return {
      running: shown(options.running?.options),
      saved: shown(saved),
      setOutside: options.running?.setOutside ?? null,
    };
  };

  const record = (detail: string, actor: string) =>
    options.engine.admin.write((tx) =>
      tx.appendAudit({
        at: options.engine.now(),
        actor,
        action: 'setting_change',
        subject: 'store_server',
        detail,
      }),
    );

  return {
    'store-server:get': () => state(),
    'store-server:set': async (input) => {
      const actor = await options.requirePin(input.pin);
      let store: StoreServerOptions | undefined;
      try {
        store = storeServerOptions(input, STORE_SERVER_FIELD_NAMES);
      } catch (error) {
        if (error instanceof StoreServerSettingError) throw new BridgeError('invalid-input', error.message);
        throw error;
      }
      if (!store) throw new BridgeError('invalid-input', 'Give the store server and this counter’s name.');
      // This counter's own engine holds the lane it runs on: saving that again is no clash.
      const running = options.running?.options;
      const ownLane = running?.url === store.url && running.lane === store.lane;
      try {
        await probe(store.url, ownLane ? undefined : store.lane);
      } catch (error) {
        throw new BridgeError('refused', `${(error as Error).message} Nothing was saved.`);
      }
      writeStoreServerFile(options.dataDir, store);
      await record(`${shownStoreServer(store.url)} as lane ${store.lane}, from the next start`, actor);
      return state();
    },
    'store-server:clear': async (input) => {
      const actor = await options.requirePin(input.pin);
      writeStoreServerFile(options.dataDir, undefined);
      await record("this counter's own ledger, from the next start", actor);
      return state();
    },
  };
}
