/**
 * The engine's composition: the services over the store it is given, a counter's own SQLite file or
 * a store server shared by several counters (open-store.ts chooses). Used alike by the Electron main
 * process, the headless CLI and the tests.
 */
import { BatchService } from './batches';
import type { ExpectedBatch } from './domain/batch';
import { ApiKeys } from './keys';
import { MoneyMoves, type BatchClose, type Requester } from './money-moves';
import type { Processor } from './processor/processor';
import { ProcessorBySetting } from './processor/by-setting';
import { SimulatedProcessor } from './processor/simulated';
import { UpstreamProcessor } from './processor/upstream';
import { Forwarder } from './forwarder';
import { readMaskedSwipe } from './swipe/masked';
import { Settings } from './settings';
import { MagtekSwipeDecoder } from './swipe/decoder';
import type { SwipeDecoder } from './swipe/swipe-decoder';
import type { AdminStore } from './store/admin-store';
import type { LedgerStore } from './store/ledger-store';
import type { LedgerReadPort } from './store/read-port';
import type { Store } from './store/store';
import { StaffService } from './staff/staff';
import type { TransactionResponse } from '../../shared/api/schemas';
import { TransactionService } from './transactions';
import { Signatures } from './signatures';
import { ReceiptService, type ReceiptOptions } from './receipts/receipt-service';
import type { CustomerRecords } from './store/customer-records';

export interface EngineOptions {
  now?: () => number;
  /** Stands in for the simulator: what `processor` `simulator` sends transactions to. */
  processor?: Processor;
  swipes?: SwipeDecoder;
}

export class Engine {
  readonly ledger: LedgerStore;
  readonly keys: ApiKeys;
  readonly settings: Settings;
  readonly transactions: TransactionService;
  readonly batches: BatchService;
  /** API keys, settings, staff and the PIN gate: the data dir's, or the store's on a store server. */
  readonly admin: AdminStore;
  /** Cashiers and managers, their PINs, and who is signed in at each counter. */
  readonly staff: StaffService;
  /** Lists, the open batch and the audit log, read off the connection that writes payments. */
  readonly reads: LedgerReadPort;
  /** What customers leave with their transactions: signatures and receipt addresses. */
  readonly customerRecords: CustomerRecords;
  /** Customers' signatures for their charges. */
  readonly signatures: Signatures;
  /** The lane this counter writes in: its name on a store server, LOCAL_LANE on its own. */
  readonly lane: string;
  /** True when the ledger is on a store server, shared with other counters. */
  readonly onStoreServer: boolean;
  /** The clock every rule reads (epoch ms). */
  readonly now: () => number;
  /** The merchant's gateway, when the processor setting names it; its line says whether it can be reached. */
  readonly upstream: UpstreamProcessor;
  /** Sends what was made offline on to the gateway; started by a serving engine (gateway.ts). */
  readonly forwarder: Forwarder;
  private readonly moneyMoves: MoneyMoves;

  private constructor(
    /** The store the engine was given, with what only its kind has (such as a ledger file's checks). */
    readonly store: Store,
    options: EngineOptions,
  ) {
    const now = options.now ?? Date.now;
    this.now = now;
    this.ledger = store.ledger;
    this.reads = store.reads;
    this.customerRecords = store.customerRecords;
    this.admin = store.admin;
    this.lane = store.lane;
    this.onStoreServer = store.shared;
    this.keys = new ApiKeys(this.admin, now);
    this.settings = new Settings(this.admin, now, {
      onBdkErased: () => this.forwarder.swipesDeleted(),
    });
    this.staff = new StaffService(this.admin, now, () => this.settings.get('lock_after_minutes'));
    const settings = this.settings;
    // Read at each request, so that a change in the settings applies from the next request on.
    this.upstream = new UpstreamProcessor(
      () => ({
        url: settings.get('upstream_url'),
        apiKey: settings.get('upstream_api_key'),
        caFile: settings.get('upstream_ca_file'),
        timeoutSeconds: settings.get('upstream_timeout_seconds'),
      }),
      now,
    );
    // A decoder per swipe, so a BDK changed in the settings applies from the next request on. For the
    // merchant's gateway a swipe is not decrypted here at all: it goes up as the reader encrypted it.
    const swipes = options.swipes ?? {
      decode: (swipe: string) =>
        settings.get('processor') === 'upstream'
          ? readMaskedSwipe(swipe)
          : new MagtekSwipeDecoder(settings.get('swipe_bdk')).decode(swipe),
    };
    this.transactions = new TransactionService(
      this.ledger,
      this.settings,
      new ProcessorBySetting(options.processor ?? new SimulatedProcessor(), this.upstream, () =>
        settings.get('processor'),
      ),
      swipes,
      store.cardHashKey,
      now,
    );
    this.forwarder = new Forwarder(this.ledger, this.upstream, now);
    this.transactions.onSwipesDeleted = () => this.forwarder.swipesDeleted();
    this.transactions.onQueuedOffline = () => this.forwarder.queued();
    this.batches = new BatchService(this.ledger, this.reads, now, {
      settings,
      upstream: this.upstream,
      forwarder: this.forwarder,
      gate: this.transactions.closeGate,
    });
    this.signatures = new Signatures(this.ledger, this.customerRecords, now);
    this.moneyMoves = new MoneyMoves(this.transactions, this.batches, this.staff, this.reads);
  }

  /**
   * A transaction, the one way in for the API and for the counter's approved requests alike: who
   * asks (and which manager approved), what the key may do, the Idempotency-Key (money-moves.ts).
   */
  transact(
    body: Record<string, unknown>,
    requester: Requester,
    idempotencyKey?: string,
  ): Promise<{ response: TransactionResponse; replayed: boolean }> {
    return this.moneyMoves.transaction(body, requester, idempotencyKey);
  }

  /** The close of the open batch, the one way in for the API and the counter alike (money-moves.ts). */
  closeBatch(requester: Requester, expected?: ExpectedBatch): Promise<BatchClose> {
    return this.moneyMoves.closeBatch(requester, expected);
  }

  /**
   * Receipts from this engine's ledger, settings and customers' signatures, on its clock (whether a
   * tab has expired); `options` hold what differs by who prints.
   */
  receipts(options: ReceiptOptions = {}): ReceiptService {
    const { reads, settings, signatures, now } = this;
    return new ReceiptService({ reads, settings, signatures, now }, options);
  }

  /** The engine over `store`, which it closes when it closes. */
  static start(store: Store, options: EngineOptions = {}): Engine {
    return new Engine(store, options);
  }

  /**
   * Lets the money moves under way end (and takes no new one), stops forwarding, writes the PIN
   * refusals still counted in memory, then closes the store: its readers, background work and
   * connections.
   */
  async close(): Promise<void> {
    await this.moneyMoves.drain();
    await this.forwarder.stop();
    this.upstream.close();
    await this.staff.close();
    await this.store.close();
  }
}
