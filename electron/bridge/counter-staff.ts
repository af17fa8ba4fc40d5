/**
 * The people at the counter, on the host's side of the bridge: who is signed in, the lock, the first
 * manager, staff accounts, and the requests only a manager may allow. The screens' own API key holds
 * no standing power to refund, void, close the batch or charge past a possible duplicate; the host
 * checks the signed-in manager, or a manager's PIN for that one request, then asks the engine for
 * exactly that request through the same way in as the API (Engine.transact, Engine.closeBatch),
 * naming the manager who approved it, so the answer is the one the API would give.
 */
import { needsManager, type Permission } from '../../shared/api/permissions';
import { parseTransactionType } from '../../shared/api/transaction-types';
import { formatMoney, parseMoney, parseNetCents } from '../../shared/money';
import type { BridgeErrorCode } from '../../shared/ipc/contract';
import type { ApprovedClose, CounterSession, StaffMemberShown } from '../../shared/ipc/staff-contract';
import type { Engine } from '../gateway/engine';
import { approvedActor } from '../gateway/staff/actors';
import { checkedName } from '../gateway/staff/staff-rules';
import { normalizeFields } from '../gateway/request-fields';
import { MoneyMoveRefused, type MoneyMoveRefusal } from '../gateway/money-moves';
import { ReadTimeoutError } from '../gateway/store/store-errors';
import {
  COUNTER_LOCKED_MESSAGE,
  InvalidStaffRequestError,
  PinRefusedError,
  StaffExistError,
  THIS_COUNTER,
  type StaffMember,
} from '../gateway/staff/staff';
import { BridgeError, type BridgeHandlers } from './dispatch';
import type { BridgeEventHub } from './events';
import type { StoredPin } from './manager-pin';

/**
 * Each refusal of a money move as the bridge answers it, as the API answers it with its status: a
 * request still being answered (409) may yet be done, and a key used for another request (422) is
 * not a manager's refusal (403); the screens tell each as the API's answer is told.
 */
const REFUSAL_CODE: Record<MoneyMoveRefusal, BridgeErrorCode> = {
  counter_locked: 'refused',
  forbidden: 'refused',
  idempotency_key_in_flight: 'in-progress',
  idempotency_key_reused: 'key-reused',
};

/** A refusal of the one way in for money moves, as the bridge answers it. */
function refused(error: unknown): unknown {
  if (!(error instanceof MoneyMoveRefused)) return error;
  return new BridgeError(REFUSAL_CODE[error.code], error.message);
}

export type StaffChannel = Extract<keyof BridgeHandlers, `staff:${string}` | `counter:${string}`>;

export interface CounterStaffOptions {
  engine: Engine;
  events: BridgeEventHub;
  /** Who the audit log names for what the screens do outside the API. */
  actor: string;
  /** The screens' own key: its ledger id, how the audit log names it, and what it may do alone. */
  key: { recordId: number; id: string; name: string; permissions: readonly Permission[] };
  /** The counter's manager PIN of earlier versions, which becomes the first manager's PIN. */
  earlierManagerPin: StoredPin | null;
  /** Tells the screens the settings changed (the first manager's answer on tips). */
  settingsChanged?: () => void;
}

function shown(member: StaffMember): StaffMemberShown {
  return {
    id: member.id,
    name: member.name,
    role: member.role,
    serverId: member.serverId ?? '',
    retired: member.retired !== null,
  };
}

/** What a request to the engine is, in a manager's words: "refund of $12.00 (transaction 7)". */
function describeRequest(request: Record<string, unknown>): string {
  const type = typeof request.type === 'string' ? parseTransactionType(request.type) : undefined;
  const amount = typeof request.amount === 'string' ? parseMoney(request.amount) : undefined;
  const money = amount?.ok ? ` of $${formatMoney(amount.cents)}` : '';
  // Only an id the engine could read is repeated: the request is the screen's, not yet validated.
  const id = String(request.id);
  const of = request.id !== undefined && /^[1-9]\d{0,14}$/.test(id) ? ` (transaction ${id})` : '';
  const what = type === undefined ? 'transaction' : type.toLowerCase();
  return `${what}${money}${of}`;
}

export class CounterStaff {
  readonly #options: CounterStaffOptions;

  constructor(options: CounterStaffOptions) {
    this.#options = options;
    options.engine.staff.registerCounter(options.key.recordId);
  }

  /** Makes the counter manager PIN of earlier versions the first manager, when there is one. */
  async start(): Promise<void> {
    const { engine, earlierManagerPin, actor } = this.#options;
    if (earlierManagerPin) await engine.staff.adoptManagerPin(earlierManagerPin, actor);
  }

  /** Forgets the counter, so its key acts for no one; call when the screens' key is revoked. */
  stop(): void {
    this.#options.engine.staff.unregisterCounter(this.#options.key.recordId);
  }

  session(): CounterSession {
    const { engine, key } = this.#options;
    const member = engine.staff.signedInAt(key.recordId);
    return {
      signedIn: member ? shown(member) : null,
      needsFirstManager: !engine.staff.hasStaff(),
      lockAfterMinutes: engine.settings.get('lock_after_minutes'),
    };
  }

  /**
   * The manager who allows `purpose`: the one signed in, or the one whose PIN came with this request.
   * Wrong PINs are in the audit log and pause after five in a row.
   */
  async approve(pin: string | undefined, purpose: string): Promise<StaffMember> {
    const { engine, key, actor } = this.#options;
    const signedIn = engine.staff.signedInAt(key.recordId);
    if (signedIn?.role === 'manager') return signedIn;
    if (pin === undefined) {
      throw new BridgeError(
        'pin-required',
        `A manager must allow this: ${purpose}. Ask a manager for their PIN.`,
      );
    }
    try {
      return await engine.staff.approvingManager(pin, purpose, actor, this.#counter);
    } catch (error) {
      if (error instanceof PinRefusedError) throw new BridgeError('wrong-pin', error.message);
      throw error;
    }
  }

  /** Who the audit log names for a change `purpose` that a manager allowed: the signed-in one, or by PIN. */
  async approvedActor(pin: string | undefined, purpose: string): Promise<string> {
    return this.#by(await this.approve(pin, purpose));
  }

  handlers(): Pick<BridgeHandlers, StaffChannel> {
    const { engine, key, actor } = this.#options;
    const staff = engine.staff;
    const changing = async <T>(work: () => T | Promise<T>): Promise<T> => {
      try {
        return await work();
      } catch (error) {
        if (error instanceof StaffExistError) throw new BridgeError('refused', error.message);
        if (error instanceof InvalidStaffRequestError) throw new BridgeError('invalid-input', error.message);
        throw error;
      }
    };
    return {
      'staff:session': () => this.session(),
      'staff:sign-in': async (input) => {
        let member: StaffMember;
        try {
          member = await staff.identify(input.pin, 'sign-in', actor, this.#counter, input.prompt);
        } catch (error) {
          if (error instanceof PinRefusedError) throw new BridgeError('wrong-pin', error.message);
          throw error;
        }
        await staff.signIn(key.recordId, member, actor);
        return this.#announce();
      },
      'staff:active': () => null,
      'staff:lock': async () => {
        // Locked at once, even when the entry saying so cannot be written.
        const recorded = staff.signOut(key.recordId, actor, 'locked');
        const session = this.#announce();
        await recorded;
        return session;
      },
      'staff:first-manager': (input) =>
        changing(async () => {
          if (staff.hasStaff()) {
            throw new BridgeError('refused', 'Tender already has a manager. Sign in with your PIN.');
          }
          // The counter's answer on tips first: a manager is created only with the counter set as asked.
          const tips = input.takesTips;
          const tipsChange = tips !== undefined && tips !== engine.settings.get('tips_enabled');
          if (tipsChange) await engine.settings.setFromText('tips_enabled', String(tips), actor);
          // Tips at the counter only where the counter takes tips at all.
          const counterTips = tips === true && input.counterTips === true;
          const counterChange =
            input.counterTips !== undefined && counterTips !== engine.settings.get('counter_tips');
          if (counterChange) await engine.settings.setFromText('counter_tips', String(counterTips), actor);
          const member = await staff.createFirstManager(
            { name: input.name, pin: input.newPin, serverId: input.serverId ?? null },
            actor,
          );
          await staff.signIn(key.recordId, member, actor);
          if (tipsChange || counterChange) this.#options.settingsChanged?.();
          return this.#announce();
        }),
      'staff:list': () => ({ staff: staff.list().map(shown) }),
      'staff:create': (input) =>
        changing(async () => {
          // The name is checked before the PIN: a refused approval writes it to the audit log.
          const name = checkedName(input.name);
          const manager = await this.approve(input.pin, `add ${name} as ${input.role}`);
          const member = await staff.create(
            { name, role: input.role, pin: input.newPin, serverId: input.serverId ?? null },
            this.#by(manager),
          );
          return shown(member);
        }),
      'staff:change': (input) =>
        changing(async () => {
          const manager = await this.approve(input.pin, 'change a staff account');
          const member = await staff.change(
            String(input.id),
            {
              ...(input.name !== undefined && { name: input.name }),
              ...(input.role !== undefined && { role: input.role }),
              ...(input.newPin !== undefined && { pin: input.newPin }),
              ...(input.serverId !== undefined && { serverId: input.serverId }),
            },
            this.#by(manager),
          );
          this.#announce();
          return shown(member);
        }),
      'staff:retire': (input) =>
        changing(async () => {
          const manager = await this.approve(input.pin, 'retire a staff account');
          const member = await staff.retire(String(input.id), this.#by(manager));
          this.#announce();
          return shown(member);
        }),
      'staff:set-lock-minutes': async (input) => {
        const manager = await this.approve(input.pin, 'change when the counter locks itself');
        await engine.settings.setFromText('lock_after_minutes', String(input.minutes), this.#by(manager));
        return this.#announce();
      },
      'counter:approved-transaction': async (input) => {
        // Anything else the screens send themselves, with their own key.
        const request = normalizeFields(input.request);
        if (!needsManager(request)) {
          throw new BridgeError(
            'refused',
            'Only refunds, voids and charges past a possible duplicate come this way.',
          );
        }
        this.#signedIn();
        const manager = await this.approve(input.pin, describeRequest(request));
        try {
          const { response } = await engine.transact(
            request,
            { key, approvedBy: manager },
            input.idempotencyKey,
          );
          return response;
        } catch (error) {
          throw refused(error);
        }
      },
      'counter:approved-close': async (input): Promise<ApprovedClose> => {
        this.#signedIn();
        // The contract's pattern has let the text through; every net it allows is compared, however large.
        const netAmount = parseNetCents(input.expectedNetAmount);
        if (netAmount === undefined)
          throw new BridgeError('invalid-input', 'The net to close must be dollars and cents.');
        const manager = await this.approve(
          input.pin,
          `close the batch of ${input.expectedTotalCount} transactions`,
        );
        let close;
        try {
          close = await engine.closeBatch(
            { key, approvedBy: manager },
            { totalCount: input.expectedTotalCount, netAmount },
          );
        } catch (error) {
          // A read of the ledger that took too long, as the API answers it (503): the store is busy, not
          // broken. Such a read comes before the close (a close once done is answered as closed), but
          // the screens still look at the batch before saying anything was or was not closed.
          if (error instanceof ReadTimeoutError) {
            throw new BridgeError(
              'unavailable',
              `Reading the ledger took longer than ${error.timeoutMs / 1000} s and was stopped; nothing was ` +
                'closed. Try again in a moment.',
            );
          }
          throw refused(error);
        }
        switch (close.outcome) {
          case 'closed':
            return { outcome: 'closed', batch: close.batch };
          case 'none open':
            return { outcome: 'none-open' };
          case 'changed':
            return { outcome: 'changed', batch: close.batch };
          case 'gateway refused':
            throw new BridgeError('unavailable', close.message);
        }
      },
    };
  }

  /** Where the gate counts this counter's wrong PINs: its lane on a store server. */
  get #counter(): string {
    const { engine } = this.#options;
    return engine.onStoreServer ? engine.lane : THIS_COUNTER;
  }

  /** Who works at the counter now; nothing is done for no one. */
  #signedIn(): StaffMember {
    const member = this.#options.engine.staff.signedInAt(this.#options.key.recordId);
    if (!member) throw new BridgeError('refused', COUNTER_LOCKED_MESSAGE);
    return member;
  }

  /** A change a manager allowed, as the audit log names it. */
  #by(manager: StaffMember): string {
    const cashier = this.#options.engine.staff.signedInAt(this.#options.key.recordId);
    return approvedActor(cashier?.name ?? manager.name, manager.name, this.#options.key);
  }

  #announce(): CounterSession {
    const session = this.session();
    this.#options.events.emit('staff:session-changed', session);
    return session;
  }
}
