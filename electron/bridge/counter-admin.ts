/**
 * The merchant's side of the bridge: API keys for other local programs, the engine's settings and the
 * counter's own (each change allowed by a manager), the audit log, and what an integrator needs to connect. These reach
 * the screens through the bridge rather than the REST API, so no API key can change them.
 */
import { X509Certificate } from 'node:crypto';
import type {
  ApiKeyInfo as ApiKeyShown,
  AppSettings,
  AuditPage,
  ConnectionInfo,
  InvokeChannel,
  ManagerAction,
} from '../../shared/ipc/contract';
import { isAnsiTestBdk, keyCheckValue } from '../gateway/crypto/dukpt';
import type { Engine } from '../gateway/engine';
import { InvalidKeyRequestError, type ApiKeyInfo } from '../gateway/keys';
import { dataDirLayout } from '../gateway/paths';
import { UnknownSettingError, type SettingName, type SettingValues } from '../gateway/settings';
import { ReadTimeoutError } from '../gateway/store/store-errors';
import { BridgeError, type BridgeHandlers } from './dispatch';
import type { BridgeEventHub } from './events';
import { CounterPreferences } from './counter-preferences';
import { formatMoney } from '../../shared/money';

/** What the host can do with the screens' document beyond the bridge: the desktop app writes PDFs. */
export interface ScreensDocuments {
  /** Asks where to save, then writes the window's printed form there; false when the manager cancelled. */
  savePdf(fileName: string): Promise<boolean>;
}

export interface CounterAdminOptions {
  engine: Engine;
  engineUrl: string;
  certificatePem: string;
  dataDir: string;
  events: BridgeEventHub;
  /** Who the audit log names for what is done here without a manager's approval. */
  actor: string;
  /** The public id of the screens' own key. */
  ownKeyId: () => string;
  /**
   * Passes when a manager allows `purpose` (signed in, or by this PIN), with how the audit log names
   * the change: who asked and the manager who allowed it. Refuses otherwise.
   */
  approve: (pin: string | undefined, purpose: string) => Promise<string>;
  documents?: ScreensDocuments;
  platform?: NodeJS.Platform;
  now?: () => number;
}

type AdminChannel = Exclude<
  InvokeChannel,
  | 'terminal:session'
  | 'reader:status'
  | `simulator:${string}`
  | `receipts:${string}`
  | `staff:${string}`
  | `counter:${string}`
  | `attempts:${string}`
  | `store-server:${string}`
  | `processor:${string}`
  | `customer:${string}`
>;

const REVOKED_SHOWN = 25;

function instant(epochMs: number): string {
  return new Date(epochMs).toISOString();
}

function shownKey(key: ApiKeyInfo, ownKeyId: string): ApiKeyShown {
  return {
    id: key.id,
    name: key.name,
    permissions: key.permissions,
    created: instant(key.created),
    lastUsed: key.lastUsed === null ? null : instant(key.lastUsed),
    revoked: key.revoked === null ? null : instant(key.revoked),
    current: key.id === ownKeyId,
    counterScreens: key.counterScreens,
  };
}

function platformOf(platform: NodeJS.Platform): ConnectionInfo['platform'] {
  return platform === 'linux' || platform === 'darwin' || platform === 'win32' ? platform : 'other';
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export class CounterAdmin {
  readonly #options: CounterAdminOptions;
  readonly #preferences: CounterPreferences;

  constructor(options: CounterAdminOptions) {
    this.#options = options;
    this.#preferences = CounterPreferences.open(options.dataDir);
  }

  settings(): AppSettings {
    const { settings } = this.#options.engine;
    const bdk = settings.get('swipe_bdk');
    return {
      tipsEnabled: settings.get('tips_enabled'),
      tipPercentages: this.#preferences.tipPercentages,
      authExpiryDays: settings.get('auth_expiry_days'),
      tipWarnPercent: settings.get('tip_warn_percent'),
      duplicateWindowMinutes: settings.get('duplicate_window_minutes'),
      confirmAmountAboveCents: settings.get('confirm_amount_above'),
      counterTips: settings.get('counter_tips'),
      smartTipBelowCents: settings.get('smart_tip_below'),
      smartTipAmountsCents: settings.get('smart_tip_amounts'),
      signatureAboveCents: settings.get('signature_above'),
      customerScreen: this.#preferences.customerScreen,
      // Refunds, voids, the close and settings changes always need a manager now.
      managerPin: true,
      swipeKey: {
        held: settings.holdsBdk(),
        testKey: settings.holdsBdk() && isAnsiTestBdk(bdk),
        kcv: settings.holdsBdk() ? keyCheckValue(bdk) : '',
        description: clip(settings.display('swipe_bdk'), 300),
      },
    };
  }

  /** The percentages the tab screen suggests, which the check prints too. */
  tipPercentages(): number[] {
    return this.#preferences.tipPercentages;
  }

  /**
   * Passes when a manager allows it (signed in, or by this PIN), as every settings change here does,
   * with who the audit log names for it.
   */
  requireManagerPin(pin: string | undefined, action: ManagerAction = 'settings'): Promise<string> {
    return this.#requirePin(pin, action);
  }

  handlers(): Pick<BridgeHandlers, AdminChannel> {
    const { engine } = this.#options;
    return {
      'terminal:connection': () => this.#connection(),
      'settings:get': () => this.settings(),
      'settings:update': async (input) => {
        const actor = await this.#requirePin(input.pin);
        const settings = engine.settings;
        // Only what changes is written: each write is an entry in the audit log.
        const changes: [SettingName, string][] = [];
        const change = <K extends SettingName>(
          name: K,
          value: SettingValues[K] | undefined,
          text: string,
        ) => {
          if (value !== undefined && value !== settings.get(name)) changes.push([name, text]);
        };
        change('tips_enabled', input.tipsEnabled, String(input.tipsEnabled));
        change('auth_expiry_days', input.authExpiryDays, String(input.authExpiryDays));
        change('tip_warn_percent', input.tipWarnPercent, String(input.tipWarnPercent));
        change(
          'duplicate_window_minutes',
          input.duplicateWindowMinutes,
          String(input.duplicateWindowMinutes),
        );
        change(
          'confirm_amount_above',
          input.confirmAmountAboveCents,
          formatMoney(input.confirmAmountAboveCents ?? 0),
        );
        change('counter_tips', input.counterTips, String(input.counterTips));
        change('smart_tip_below', input.smartTipBelowCents, formatMoney(input.smartTipBelowCents ?? 0));
        const amounts = input.smartTipAmountsCents;
        if (amounts && amounts.join() !== settings.get('smart_tip_amounts').join()) {
          changes.push(['smart_tip_amounts', amounts.map(formatMoney).join(',')]);
        }
        const signatureAbove = input.signatureAboveCents;
        change(
          'signature_above',
          signatureAbove,
          signatureAbove === null || signatureAbove === undefined ? 'none' : formatMoney(signatureAbove),
        );
        // The counter's own preferences, each with its audit entry, written once the engine's are.
        const preferences: { subject: string; before: string; after: string }[] = [];
        const changePreference = <K extends 'tipPercentages' | 'customerScreen'>(
          key: K,
          subject: string,
          value: ReturnType<CounterPreferences['snapshot']>[K] | undefined,
          words: (value: ReturnType<CounterPreferences['snapshot']>[K]) => string,
        ) => {
          const current = this.#preferences.snapshot()[key];
          if (value !== undefined && words(value) !== words(current)) {
            preferences.push({ subject, before: words(current), after: words(value) });
          }
        };
        changePreference('tipPercentages', 'tip_percentages', input.tipPercentages, (list) =>
          list.join(', '),
        );
        changePreference('customerScreen', 'customer_screen', input.customerScreen, (on) =>
          on ? 'on' : 'off',
        );
        if (changes.length > 0 || preferences.length > 0) {
          await settings.change(changes, actor, async (tx) => {
            for (const { subject, before, after } of preferences) {
              await tx.appendAudit({
                at: this.#now(),
                actor,
                action: 'setting_change',
                subject,
                detail: `${before} → ${after}`,
              });
            }
            if (preferences.length === 0) return;
            // Last, so that a failed write rolls the engine settings and the audit entries back with it.
            this.#preferences.update({
              ...(input.tipPercentages && { tipPercentages: input.tipPercentages }),
              ...(input.customerScreen !== undefined && { customerScreen: input.customerScreen }),
            });
          });
        }
        return this.#announce();
      },
      'settings:set-swipe-key': async (input) => {
        const actor = await this.#requirePin(input.pin);
        try {
          await engine.settings.setFromText('swipe_bdk', input.bdk, actor);
        } catch (error) {
          if (error instanceof UnknownSettingError) throw new BridgeError('invalid-input', error.message);
          throw error;
        }
        return this.#announce();
      },
      'manager:set-pin': () => {
        throw new BridgeError(
          'refused',
          'Each manager has a PIN of their own now. Change yours under Settings → Staff.',
        );
      },
      'manager:verify': async (input) => {
        await this.#requirePin(input.pin, input.action);
        return null;
      },
      'keys:list': () => {
        const own = this.#options.ownKeyId();
        const keys = engine.keys.list();
        const active = keys
          .filter((key) => key.revoked === null)
          .sort((a, b) => b.created - a.created)
          .map((key) => shownKey(key, own));
        const revoked = keys
          .filter((key) => key.revoked !== null)
          .sort((a, b) => (b.revoked ?? 0) - (a.revoked ?? 0));
        return {
          active,
          revoked: revoked.slice(0, REVOKED_SHOWN).map((key) => shownKey(key, own)),
          revokedTotal: revoked.length,
        };
      },
      'keys:create': async (input) => {
        const actor = await this.#requirePin(input.pin);
        try {
          const created = await engine.keys.create(input.name, input.permissions, actor);
          return { key: created.key, info: shownKey(created.info, this.#options.ownKeyId()) };
        } catch (error) {
          if (error instanceof InvalidKeyRequestError) throw new BridgeError('invalid-input', error.message);
          throw error;
        }
      },
      'keys:revoke': async (input) => {
        const actor = await this.#requirePin(input.pin);
        const own = this.#options.ownKeyId();
        if (input.id === own) {
          throw new BridgeError(
            'refused',
            'This is the key these screens use themselves. It is replaced each time Tender starts.',
          );
        }
        const revoked = await engine.keys.revoke(input.id, actor);
        if (!revoked) throw new BridgeError('refused', 'No live key has that id: it may be revoked already.');
        return shownKey(revoked, own);
      },
      'audit:recent': async (input): Promise<AuditPage> => {
        // Read on a reader thread, as the API's lists are: a deep page never holds up a payment.
        const rows = await engine.reads.recentAudit(input.limit + 1, input.offset).catch((error: unknown) => {
          if (error instanceof ReadTimeoutError) {
            throw new BridgeError(
              'unavailable',
              'The audit log took too long to read. Try again in a moment.',
            );
          }
          throw error;
        });
        return {
          entries: rows.slice(0, input.limit).map((row) => ({
            id: row.id,
            at: instant(row.at),
            actor: clip(row.actor, 200),
            action: clip(row.action, 40),
            subject: clip(row.subject, 300),
            detail: clip(row.detail, 1000),
          })),
          more: rows.length > input.limit,
        };
      },
      'report:save-pdf': async (input) => {
        const documents = this.#options.documents;
        if (!documents) {
          throw new BridgeError(
            'unavailable',
            'In a browser, press Print and choose Save as PDF as the printer.',
          );
        }
        return { saved: await documents.savePdf(input.fileName) };
      },
    };
  }

  #now(): number {
    return (this.#options.now ?? Date.now)();
  }

  /** Tells the screens the settings as they are now, after a change made elsewhere on the host. */
  announceSettings(): void {
    this.#announce();
  }

  #announce(): AppSettings {
    const settings = this.settings();
    this.#options.events.emit('settings:changed', settings);
    return settings;
  }

  #connection(): ConnectionInfo {
    const certificate = new X509Certificate(this.#options.certificatePem);
    return {
      engineUrl: this.#options.engineUrl,
      certificate: {
        sha256: certificate.fingerprint256,
        validFrom: instant(Date.parse(certificate.validFrom)),
        validTo: instant(Date.parse(certificate.validTo)),
        file: dataDirLayout(this.#options.dataDir).certificate,
      },
      platform: platformOf(this.#options.platform ?? process.platform),
    };
  }

  /** Passes when a manager allows it: the one signed in, or one whose PIN came with the request. */
  #requirePin(pin: string | undefined, action: ManagerAction = 'settings'): Promise<string> {
    return this.#options.approve(pin, ACTION_WORDS[action]);
  }
}

const ACTION_WORDS: Record<ManagerAction, string> = {
  void: 'void a transaction',
  refund: 'refund a card',
  'batch-close': 'close the batch',
  settings: 'change settings',
  duplicate: 'charge a card again past a possible duplicate',
  'offline-decline': 'acknowledge a declined offline sale',
};
