/**
 * What the cashier screens get from the process that hosts them, whichever transport carries it:
 * their own API key for the engine, the card reader's status and swipes, and the app settings.
 * The Electron main process and the headless `serve` command both run one Terminal over the engine.
 */
import type { Permission } from '../../shared/api/permissions';
import type { ReaderStatus, TerminalSession } from '../../shared/ipc/contract';
import type { Engine } from '../gateway/engine';
import type { ApiKeyInfo } from '../gateway/keys';
import { MagtekReaders, type HidBackend, type ReaderSwipe } from '../reader/reader';
import { randomSimulatorInitialKsn, SwipeSimulator } from '../reader/simulator';
import { join } from 'node:path';
import { AttemptJournal } from './attempt-journal';
import { CounterAdmin, type ScreensDocuments } from './counter-admin';
import { CounterPreferences } from './counter-preferences';
import { CounterStaff } from './counter-staff';
import { CustomerDisplay, type CustomerTimers } from './customer-display';
import { CUSTOMER_SCREEN_EVENTS, type CustomerScreenChannel } from '../../shared/ipc/customer-contract';
import type { ProcessorLine } from '../../shared/ipc/processor-contract';
import { BridgeError, type BridgeHandlers } from './dispatch';
import { BridgeEventHub, type BridgeEvents } from './events';
import {
  cashierPageEvents,
  counterLockedRefusal,
  customerLockedRefusal,
  openToTheCustomerWhileLocked,
  openWhileLocked,
} from './locked-counter';
import { paymentProcessorHandlers, ProcessorLineWatch } from './payment-processor';
import { receiptHandlers } from './receipts';
import { storeServerHandlers, type RunningStore } from './store-server-setting';
import { isSwipeProblem, ReaderStatusTracker } from './reader-status';
import { simulatedSwipePlan } from './simulated-cards';

export type ReaderSetup =
  | { kind: 'none' }
  | { kind: 'hid'; backend: HidBackend }
  /** Swipes generated on request, through the same report parsing as a real reader's. */
  | { kind: 'simulator' };

export type TerminalShell = TerminalSession['shell'];

/**
 * The USB reader backend; should creating it throw, one whose every call fails with that error. The
 * reader module then reports USB HID as unavailable, with its fix, as it does when node-hid's library
 * fails to load at the first scan, and the counter keeps working with keyed cards.
 */
export function hidReaderSetup(create: () => HidBackend): ReaderSetup {
  try {
    return { kind: 'hid', backend: create() };
  } catch (error) {
    const fail = () => Promise.reject(error instanceof Error ? error : new Error(String(error)));
    return { kind: 'hid', backend: { list: fail, open: fail } };
  }
}

export interface TerminalOptions {
  /** The engine, the REST base URL it serves and the certificate it presents. */
  gateway: { url: string; engine: Engine; certificatePem: string };
  /** The engine's data dir, which also holds the counter's own settings. */
  dataDir: string;
  shell: TerminalShell;
  version: string;
  reader: ReaderSetup;
  /** Only the desktop app can write the shown report to a PDF file. */
  documents?: ScreensDocuments;
  /** The store server this run's ledger is on, if any, and how it was given. */
  store?: RunningStore;
  /** How long the customer's screen says thank you before it is idle again. */
  customerThanksMs?: number;
  /** The clock of the customer's screen's time limits (Thank you, an unattended signature or receipt). */
  customerTimers?: CustomerTimers;
  /** In a browser: the address that pairs one more customer's page. */
  customerScreenAddress?: () => string;
  /** How often the host looks for the idle lock when nothing else asked; IDLE_LOCK_CHECK_MS by default. */
  idleLockCheckMs?: number;
}

/**
 * The idle lock falls when a request or an event finds the counter unused for lock_after_minutes.
 * With its page gone (closed, crashed, a browser left on another tab) nothing may ask: the host
 * looks this often, so the customer's screen leaves a sale and the pages hear of the lock anyway.
 */
export const IDLE_LOCK_CHECK_MS = 15_000;

/**
 * The screens' API key is named after their shell. Each start revokes the keys the previous run of
 * the same shell left, so at most one is live and none is ever written down in the clear.
 */
/** How the audit log names what the cashier screens do outside the API (their key, their settings). */
export const CASHIER_APP = 'cashier app';

/** The attempt journal in the data dir: the screens' payments whose answer is not known yet. */
export const ATTEMPT_JOURNAL_FILE = 'unanswered-payments.json';

/** The customer's own answers, asked of the cashier's page. */
function notTheCustomer(): never {
  throw new BridgeError('forbidden', "Only the customer's screen answers this.");
}

export const TERMINAL_KEY_NAMES: Record<TerminalShell, string> = {
  desktop: 'Tender desktop app',
  browser: 'Tender browser screens',
};

/**
 * What the screens' own key may do: sell, run tabs and read. Refunds, voids, the batch close and
 * charges past a possible duplicate need a manager, so the key holds no standing power to do them;
 * the host runs them for the screens once a manager has allowed each one (counter-staff.ts).
 */
export const SCREENS_PERMISSIONS: readonly Permission[] = [
  'transactions:sale',
  'transactions:read',
  'batches:read',
];

export async function issueTerminalKey(
  engine: Engine,
  shell: TerminalShell,
): Promise<{ key: string; info: ApiKeyInfo }> {
  // On a store server the keys are the store's: each counter replaces its own screens' key only,
  // and a screens' key its data dir brought from before it joined the store. Another program's key
  // given the same name is not a screens key, and is left alone.
  const name = engine.onStoreServer
    ? `${TERMINAL_KEY_NAMES[shell]} (${engine.lane})`
    : TERMINAL_KEY_NAMES[shell];
  const replaced = new Set([name, TERMINAL_KEY_NAMES[shell]]);
  for (const key of engine.keys.list()) {
    if (key.counterScreens && replaced.has(key.name) && key.revoked === null)
      await engine.keys.revoke(key.id, CASHIER_APP);
  }
  return engine.keys.create(name, SCREENS_PERMISSIONS, CASHIER_APP, { counterScreens: true });
}

/** The public id inside a key `tender_<id>_<secret>`, which names the key in lists. */
function publicIdOf(key: string): string {
  return key.split('_')[1] ?? '';
}

/** What a customer's screen may ask of the host: its own step, and the answers to it. */
export type CustomerScreenHandlers = Pick<BridgeHandlers, CustomerScreenChannel>;

export class Terminal {
  /** Everything the host's parts tell each other and the screens, as it happens. */
  readonly events = new BridgeEventHub();
  /** What a cashier's page is sent of `events`: only what the lock screen shows while locked. */
  readonly cashierEvents: BridgeEvents;
  /** What a customer's page is sent: its own view, which is the welcome while the counter is locked. */
  readonly customerEvents: BridgeEvents;
  /** Every request of the cashier's screens. */
  readonly handlers: BridgeHandlers;
  /** The customer's screen: what it shows, and the few requests it may make. */
  readonly customer: CustomerDisplay;
  readonly customerHandlers: CustomerScreenHandlers;
  readonly #options: TerminalOptions;
  readonly #apiKey: string;
  readonly #readers: MagtekReaders | undefined;
  readonly #simulator: SwipeSimulator | undefined;
  readonly #tracker: ReaderStatusTracker;
  readonly #admin: CounterAdmin;
  readonly #staff: CounterStaff;
  readonly #journal: AttemptJournal;
  readonly #processorLine: ProcessorLineWatch;
  readonly #keyRecordId: number;
  /** The processor's line as the screens were last told it. */
  #lastLine: ProcessorLine | undefined;
  /** Whether the counter was locked when the host last looked; nobody is signed in at start. */
  #locked = true;
  #lastStatus: string;
  #stopped = false;
  #idleLockCheck: NodeJS.Timeout | undefined;

  private constructor(options: TerminalOptions, issued: { key: string; info: ApiKeyInfo }) {
    this.#options = options;
    this.#keyRecordId = issued.info.recordId;
    this.#admin = new CounterAdmin({
      engine: options.gateway.engine,
      engineUrl: options.gateway.url,
      certificatePem: options.gateway.certificatePem,
      dataDir: options.dataDir,
      events: this.events,
      actor: CASHIER_APP,
      ownKeyId: () => publicIdOf(this.#apiKey),
      approve: (pin, purpose) => this.#staff.approvedActor(pin, purpose),
      ...(options.documents && { documents: options.documents }),
    });
    this.#apiKey = issued.key;
    this.#staff = new CounterStaff({
      engine: options.gateway.engine,
      events: this.events,
      actor: CASHIER_APP,
      key: {
        recordId: issued.info.recordId,
        id: issued.info.id,
        name: issued.info.name,
        permissions: issued.info.permissions,
      },
      earlierManagerPin: CounterPreferences.open(options.dataDir).managerPin,
      settingsChanged: () => this.#admin.announceSettings(),
    });
    this.#journal = new AttemptJournal({
      file: join(options.dataDir, ATTEMPT_JOURNAL_FILE),
      ledger: options.gateway.engine.ledger,
      apiKeyId: () => issued.info.recordId,
      keyRecordId: (publicId) =>
        options.gateway.engine.keys.list().find((key) => key.id === publicId)?.recordId,
    });
    this.#processorLine = new ProcessorLineWatch(options.gateway.engine, (line) => {
      this.#lastLine = line;
      this.events.emit('processor:line-changed', line);
    });
    this.#simulator =
      options.reader.kind === 'simulator'
        ? new SwipeSimulator({ initialKsn: randomSimulatorInitialKsn() })
        : undefined;
    const backend =
      options.reader.kind === 'hid' ? options.reader.backend : this.#simulator && this.#simulator.backend;
    this.#readers = backend ? new MagtekReaders({ backend }) : undefined;
    this.#tracker = new ReaderStatusTracker(this.#simulator !== undefined);
    this.#lastStatus = JSON.stringify(this.readerStatus());
    const engine = options.gateway.engine;
    this.customer = new CustomerDisplay({
      engine,
      events: this.events,
      settings: () => this.#admin.settings(),
      receipts: engine.receipts(),
      ...(options.customerThanksMs !== undefined && { thanksMs: options.customerThanksMs }),
      ...(options.customerTimers && { timers: options.customerTimers }),
      ...(options.customerScreenAddress && { pairingAddress: options.customerScreenAddress }),
      counterLocked: () => this.#counterLocked(),
    });
    this.events.subscribe((event) => {
      // The switch in Settings shows or hides the customer's screen at once.
      if (event === 'settings:changed') this.customer.refresh();
      if (event === 'staff:session-changed') this.#counterLocked();
    });
    this.cashierEvents = cashierPageEvents(this.events, () => this.#counterLocked(), {
      'settings:changed': () => this.#admin.settings(),
      'processor:line-changed': () => this.#lastLine,
      'customer:changed': () => this.customer.view(),
    });
    this.customerEvents = {
      subscribe: (listener) =>
        this.events.subscribe((event, payload) => {
          if (CUSTOMER_SCREEN_EVENTS.includes(event)) listener(event, payload);
        }),
    };
    this.customerHandlers = this.#answeredToTheCustomer(this.customer.screenHandlers());
    this.handlers = this.#usedByTheCounter(this.#createHandlers());
  }

  /**
   * Whether nobody is signed in at the counter now, the idle lock applied. A change since the host
   * last looked, whatever made it (Lock, the idle lock, a sign-in), is told to the customer's screen
   * once the event or request that found it is done, so that the pages hear of the lock first.
   */
  #counterLocked(): boolean {
    const locked = this.#options.gateway.engine.staff.signedInAt(this.#keyRecordId) === undefined;
    if (locked !== this.#locked) {
      this.#locked = locked;
      queueMicrotask(() => {
        if (!this.#stopped) this.customer.lockChanged();
      });
    }
    return locked;
  }

  /**
   * The customer's screen while the counter is locked shows its welcome and takes no answer. A
   * customer's taps are not the staff's use of the counter: they never hold off its lock.
   */
  #answeredToTheCustomer(handlers: CustomerScreenHandlers): CustomerScreenHandlers {
    const wrapped: Record<string, (input: never) => unknown> = {};
    for (const [channel, handler] of Object.entries(handlers) as [string, (input: never) => unknown][]) {
      const open = openToTheCustomerWhileLocked(channel);
      wrapped[channel] = (input) => {
        if (!open && this.#counterLocked()) throw customerLockedRefusal();
        return handler(input);
      };
    }
    // Each handler keeps its own channel's type; a map over the channels cannot say so.
    return wrapped as unknown as CustomerScreenHandlers;
  }

  /**
   * Every request from the screens is use of the counter, which holds off its idle lock; the lock is
   * checked first, so a page that comes back after the counter went unused finds it locked. While it
   * is locked only what the lock screen and the sign-in need is answered (locked-counter.ts).
   */
  #usedByTheCounter(handlers: BridgeHandlers): BridgeHandlers {
    const staff = this.#options.gateway.engine.staff;
    const wrapped: Record<string, (input: never) => unknown> = {};
    for (const [channel, handler] of Object.entries(handlers) as [string, (input: never) => unknown][]) {
      const open = openWhileLocked(channel);
      wrapped[channel] = (input) => {
        if (this.#counterLocked() && !open) throw counterLockedRefusal();
        staff.noteUse(this.#keyRecordId);
        return handler(input);
      };
    }
    // Each handler keeps its own channel's type; a map over every channel cannot say so.
    return wrapped as unknown as BridgeHandlers;
  }

  /** Issues the screens' key and starts the reader. */
  static async start(options: TerminalOptions): Promise<Terminal> {
    // First: a damaged counter settings file stops the start before a key is issued for nothing.
    CounterPreferences.open(options.dataDir);
    const terminal = new Terminal(options, await issueTerminalKey(options.gateway.engine, options.shell));
    await terminal.#staff.start();
    await terminal.#startReader();
    terminal.#processorLine.start();
    terminal.#idleLockCheck = setInterval(
      () => terminal.#lookForIdleLock(),
      options.idleLockCheckMs ?? IDLE_LOCK_CHECK_MS,
    );
    terminal.#idleLockCheck.unref();
    return terminal;
  }

  /** Finds an idle lock that nothing else has found, and tells the pages, as a Lock would. */
  #lookForIdleLock(): void {
    if (this.#stopped || this.#locked) return;
    if (this.#counterLocked()) this.events.emit('staff:session-changed', this.#staff.session());
  }

  /** A customer's screen connected (a page, or the desktop app's second window); returns what to call when it goes. */
  attachCustomerScreen(): () => void {
    return this.customer.attachScreen();
  }

  readerStatus(): ReaderStatus {
    return this.#readers ? this.#tracker.status : { state: 'off' };
  }

  /** Stops the reader and revokes the screens' key; call before the engine closes. */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    clearInterval(this.#idleLockCheck);
    this.#processorLine.stop();
    this.customer.stop();
    await this.#readers?.stop();
    this.#staff.stop();
    await this.#options.gateway.engine.keys.revoke(this.#apiKey, CASHIER_APP);
  }

  async #startReader(): Promise<void> {
    const readers = this.#readers;
    if (!readers) return;
    readers.on('attached', (info) => {
      this.#tracker.attached(info);
      this.#announceStatus();
    });
    readers.on('detached', (info) => {
      this.#tracker.detached(info);
      this.#announceStatus();
    });
    readers.on('error', (problem) => {
      if (isSwipeProblem(problem)) {
        this.events.emit('reader:swipe-failed', { code: problem.code, message: problem.message });
      }
      this.#tracker.problem(problem);
      this.#announceStatus();
    });
    readers.on('swipe', (swipe) => this.#onSwipe(swipe));
    await readers.start();
  }

  #onSwipe(swipe: ReaderSwipe): void {
    this.#tracker.swiped(swipe.reader);
    this.#announceStatus();
    const { display } = swipe;
    this.events.emit('reader:swipe', {
      encryptedTrackData: swipe.encryptedTrackData,
      trackFormat: swipe.trackFormat,
      card: {
        maskedPan: display.maskedPan,
        lastFour: display.lastFour,
        brand: display.brand,
        ...(display.cardholderName && { cardholderName: display.cardholderName }),
      },
    });
  }

  #announceStatus(): void {
    const status = this.readerStatus();
    const text = JSON.stringify(status);
    if (text === this.#lastStatus) return;
    this.#lastStatus = text;
    this.events.emit('reader:status-changed', status);
  }

  #requireSimulator(): { simulator: SwipeSimulator; readers: MagtekReaders } {
    if (!this.#simulator || !this.#readers) {
      throw new BridgeError(
        'unavailable',
        'This terminal uses a real card reader; simulated swipes are only for demos and tests.',
      );
    }
    return { simulator: this.#simulator, readers: this.#readers };
  }

  #createHandlers(): BridgeHandlers {
    return {
      'terminal:session': () => ({
        version: this.#options.version,
        shell: this.#options.shell,
        engineUrl: this.#options.gateway.url,
        apiKey: this.#apiKey,
        readerSimulator: this.#simulator !== undefined,
      }),
      'reader:status': () => this.readerStatus(),
      ...this.#admin.handlers(),
      ...storeServerHandlers({
        dataDir: this.#options.dataDir,
        engine: this.#options.gateway.engine,
        running: this.#options.store,
        requirePin: (pin) => this.#admin.requireManagerPin(pin),
      }),
      ...paymentProcessorHandlers({
        engine: this.#options.gateway.engine,
        requirePin: (pin, action) => this.#admin.requireManagerPin(pin, action),
        announce: () => {
          void this.#processorLine.check();
          // The processor decides whether a swipe key is held, which the settings show.
          this.#admin.announceSettings();
        },
      }),
      ...this.#staff.handlers(),
      ...this.#journal.handlers(),
      // The cashier's page follows the customer's screen, but never answers for the customer: a tip,
      // a signature or a receipt address given from it would be the cashier's, kept as the customer's.
      'customer:view': () => this.customer.view(),
      'customer:choose-tip': notTheCustomer,
      'customer:sign': notTheCustomer,
      'customer:choose-receipt': notTheCustomer,
      'customer:still-here': notTheCustomer,
      ...this.customer.cashierHandlers(),
      ...receiptHandlers({
        engine: this.#options.gateway.engine,
        requirePin: (pin) => this.#admin.requireManagerPin(pin),
        tipPercentages: () => this.#admin.tipPercentages(),
      }),
      'simulator:swipe': (input) => {
        const { simulator } = this.#requireSimulator();
        if (!simulator.plugged) {
          throw new BridgeError('unavailable', 'The simulated card reader is unplugged. Plug it in first.');
        }
        const plan = simulatedSwipePlan(input.card);
        simulator.swipe(plan.card, plan.badRead ? { badRead: true } : {});
        return null;
      },
      'simulator:plug': async (input) => {
        const { simulator, readers } = this.#requireSimulator();
        if (input.plugged) simulator.plug();
        else simulator.unplug();
        // Answer once the reader module has seen the change, so a swipe right after finds it open.
        await readers.rescan();
        return null;
      },
    };
  }
}
