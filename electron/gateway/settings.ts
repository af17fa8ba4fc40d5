/** The gateway settings a merchant can change, with their defaults and the forms they accept. */
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { CARD_NUMBER_IN_TEXT, holdsCardNumber, mightHoldCardNumber } from './card-number-search';
import { ANSI_TEST_BDK, isAnsiTestBdk, keyCheckValue } from './crypto/dukpt';
import { LOCAL_ADMINISTRATOR } from './keys';
import { formatMoney, parseMoney } from '../../shared/money';
import { hasControlCharacter } from '../../shared/api/schemas';
import { isReceiptWidth, type ReceiptWidth } from './receipts/receipt';
import { PRINTER_PATTERN } from '../../shared/receipt-printer';
import type { AdminStore, AdminWrite } from './store/admin-store';

interface SettingDefinition<T> {
  description: string;
  defaultValue: T;
  parse(text: string): T | undefined;
  format(value: T): string;
  /** How the value is shown to people; a secret is never shown, only described. */
  display?(value: T): string;
  /**
   * A key or password: never shown, and never taken where other users of the computer can read it,
   * such as a word of a command line.
   */
  secret?: boolean;
  /**
   * Why a well-formed value cannot be used now (a file that is not there), checked when it is set;
   * a stored value is not checked again each time it is read.
   */
  check?(value: T): string | undefined;
  /** How a refused text may be repeated in the refusal, when not whole (what it must not carry hidden). */
  refused?(text: string): string;
}

const booleanSetting = (description: string, defaultValue: boolean): SettingDefinition<boolean> => ({
  description,
  defaultValue,
  parse: (text) => (/^(true|false)$/i.test(text.trim()) ? text.trim().toLowerCase() === 'true' : undefined),
  format: String,
});

const daysSetting = (description: string, defaultValue: number): SettingDefinition<number> => ({
  description,
  defaultValue,
  parse: (text) => (/^[1-9]\d{0,2}$/.test(text.trim()) ? Number(text.trim()) : undefined),
  format: String,
});

/** A whole number from `min` to `max`, written in digits. */
const wholeNumberSetting = (
  description: string,
  defaultValue: number,
  { min, max }: { min: number; max: number },
): SettingDefinition<number> => ({
  description,
  defaultValue,
  parse: (text) => {
    if (!/^\d{1,6}$/.test(text.trim())) return undefined;
    const value = Number(text.trim());
    return value >= min && value <= max ? value : undefined;
  },
  format: String,
});

const swipeKeySetting: SettingDefinition<string> = {
  description:
    'The base derivation key (BDK) the MagTek readers were injected with: 32 hex digits. The default is the ' +
    'public ANSI test key, for testing only.',
  defaultValue: ANSI_TEST_BDK,
  parse: (text) => (/^[0-9A-Fa-f]{32}$/.test(text.trim()) ? text.trim().toUpperCase() : undefined),
  format: String,
  secret: true,
  display: (value) =>
    isAnsiTestBdk(value)
      ? `ANSI test BDK (TEST ONLY: set the BDK your readers were injected with), KCV ${keyCheckValue(value)}`
      : `custom BDK, KCV ${keyCheckValue(value)}`,
};

/** One of a few words, in any letter case. */
const choiceSetting = <T extends string>(
  description: string,
  choices: readonly T[],
  defaultValue: T,
): SettingDefinition<T> => ({
  description,
  defaultValue,
  parse: (text) => choices.find((choice) => choice === text.trim().toLowerCase()),
  format: String,
});

/**
 * Text printed on receipts or used to reach a server: printable characters only, at most `max`, and
 * with `lines` pieces at most between `|`. An empty value clears it.
 */
const textSetting = (
  description: string,
  defaultValue: string,
  { max, lines = 1, pattern }: { max: number; lines?: number; pattern?: RegExp },
): SettingDefinition<string> => ({
  description,
  defaultValue,
  parse: (text) => {
    const value = text
      .split('|')
      .map((line) => line.trim())
      .join('|');
    if (value === '') return '';
    if (value.length > max || hasControlCharacter(value)) return undefined;
    if (value.split('|').length > lines) return undefined;
    if (pattern && !pattern.test(value)) return undefined;
    return value;
  },
  // Printed on receipts, sent in emails and kept in the audit log for good.
  check: (value) =>
    holdsCardNumber(value)
      ? `A setting must not hold ${CARD_NUMBER_IN_TEXT}: it is printed and kept.`
      : undefined,
  format: String,
});

/** Dollars with two decimals, held in cents. */
const amountSetting = (description: string, defaultValue: number): SettingDefinition<number> => ({
  description,
  defaultValue,
  parse: (text) => {
    const parsed = parseMoney(text.trim(), { allowZero: true });
    return parsed.ok ? parsed.cents : undefined;
  },
  format: formatMoney,
});

/** Dollars with two decimals, more than zero, held in cents. */
const positiveAmountSetting = (description: string, defaultValue: number): SettingDefinition<number> => ({
  description,
  defaultValue,
  parse: (text) => {
    const parsed = parseMoney(text.trim(), { allowZero: false });
    return parsed.ok ? parsed.cents : undefined;
  },
  format: formatMoney,
});

/**
 * The merchant's gateway: an https address ending in /rest/v1, with no user name or password in it
 * (the key is a setting of its own, kept secret) and no query or fragment. An empty value clears it.
 */
const gatewayAddressSetting: SettingDefinition<string> = {
  description:
    "The merchant's gateway: its https:// address ending in /rest/v1, such as https://gateway.example.com/rest/v1.",
  defaultValue: '',
  parse: (text) => {
    const value = text.trim().replace(/\/+$/, '');
    if (value === '') return '';
    if (value.length > 2000 || hasControlCharacter(value)) return undefined;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return undefined;
    }
    if (url.protocol !== 'https:' || url.username !== '' || url.password !== '') return undefined;
    if (url.search !== '' || url.hash !== '' || !url.pathname.endsWith('/rest/v1')) return undefined;
    return `${url.origin}${url.pathname}`;
  },
  format: String,
  // An address refused for the user name and password in it, or a query (which may carry a key), is
  // repeated without them: a refusal goes to the screen, the command line's output and its logs.
  refused: addressWithoutSecrets,
};

/**
 * `text` with whatever stands before the address's last `@` (a user name and password, however typed)
 * and after a `?` or `#` shown as `***`: what is left still says where it was meant to go.
 */
function addressWithoutSecrets(text: string): string {
  let shown = text;
  const at = shown.lastIndexOf('@');
  if (at !== -1) {
    const scheme = /^\s*[a-z][a-z0-9+.-]*:\/\//i.exec(shown)?.[0] ?? '';
    shown = `${scheme}***${shown.slice(at)}`;
  }
  return shown.replace(/([?#]).*$/s, '$1***');
}

/** A PEM file of certificates, named by its absolute path; read when set to check it holds one. */
const certificateFileSetting: SettingDefinition<string> = {
  description:
    "A PEM file of certificates to trust for the gateway besides the system's, for a private gateway: its full path, or empty for none. The gateway's certificate is always verified.",
  defaultValue: '',
  parse: (text) => {
    const value = text.trim();
    if (value === '') return '';
    if (value.length > 4096 || hasControlCharacter(value) || !isAbsolute(value)) return undefined;
    return value;
  },
  format: String,
  check: (value) => (value === '' ? undefined : certificateFileProblem(value)),
};

/** Why `path` is not a PEM file of certificates, or undefined when it is one. */
export function certificateFileProblem(path: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return `${path} cannot be read${code === undefined ? '' : ` (${code})`}.`;
  }
  const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) return `${path} holds no PEM certificate (-----BEGIN CERTIFICATE-----).`;
  for (const block of blocks) {
    try {
      new X509Certificate(block);
    } catch {
      return `${path} holds a certificate that cannot be read.`;
    }
  }
  return undefined;
}

/** An amount in dollars, or none: `none` (or empty) turns what it bounds off. */
const optionalAmountSetting = (description: string): SettingDefinition<number | null> => ({
  description,
  defaultValue: null,
  parse: (text) => {
    const trimmed = text.trim().toLowerCase();
    if (trimmed === '' || trimmed === 'none') return null;
    const parsed = parseMoney(trimmed);
    return parsed.ok ? parsed.cents : undefined;
  },
  format: (value) => (value === null ? 'none' : formatMoney(value)),
});

/** One to three amounts in dollars, each above zero, rising, separated by commas ("1.00,2.00,3.00"). */
const amountListSetting = (description: string, defaultValue: number[]): SettingDefinition<number[]> => ({
  description,
  defaultValue,
  parse: (text) => {
    const parts = text.split(',').map((part) => part.trim());
    if (parts.length < 1 || parts.length > 3) return undefined;
    const cents: number[] = [];
    for (const part of parts) {
      const parsed = parseMoney(part);
      if (!parsed.ok || parsed.cents <= (cents.at(-1) ?? 0)) return undefined;
      cents.push(parsed.cents);
    }
    return cents;
  },
  format: (value) => value.map(formatMoney).join(','),
});

/** A password for a server: kept to be sent, never shown back. */
const secretSetting = (description: string): SettingDefinition<string> => ({
  description,
  defaultValue: '',
  parse: (text) => (text.length <= 256 && !hasControlCharacter(text) ? text : undefined),
  format: String,
  secret: true,
  display: (value) => (value === '' ? 'not set' : 'set (hidden)'),
});

export const CUSTOMER_COPY_CHOICES = ['always', 'ask', 'never'] as const;
export const MERCHANT_COPY_CHOICES = ['always', 'above', 'never'] as const;
export const CHECK_CHOICES = ['always', 'never'] as const;
export const SMTP_SECURITY_CHOICES = ['starttls', 'tls', 'none'] as const;
export const PROCESSOR_CHOICES = ['simulator', 'upstream'] as const;
export type ProcessorChoice = (typeof PROCESSOR_CHOICES)[number];

export const SETTING_DEFINITIONS = {
  tips_enabled: booleanSetting('Accept tip_amount on CAPTURE and FORCED SALE (true or false).', false),
  swipe_bdk: swipeKeySetting,
  auth_expiry_days: daysSetting(
    'Days an approved AUTH can still be captured (1 to 999); older ones are expired and their hold released.',
    7,
  ),
  counter_tips: booleanSetting(
    'Offer the customer a tip at a counter sale, on the screen turned to them or on the cashier screen (true or ' +
      'false). Takes effect only with tips_enabled, since the tip is captured as tip_amount.',
    false,
  ),
  smart_tip_below: amountSetting(
    'Below this sale amount (dollars, like 10.00) a counter tip is offered as the fixed amounts of smart_tip_amounts ' +
      'instead of percentages; 0.00 always offers percentages.',
    1000,
  ),
  smart_tip_amounts: amountListSetting(
    'The fixed tips offered below smart_tip_below: one to three rising amounts in dollars, separated by commas.',
    [100, 200, 300],
  ),
  signature_above: optionalAmountSetting(
    'A counter sale of this total or more (dollars, like 50.00), tip included, asks the customer to sign on the ' +
      'screen turned to them; none (the default) never does.',
  ),
  tip_warn_percent: wholeNumberSetting(
    'A tip above this share of the check, in percent (1 to 1000), or above the check itself, asks the cashier to confirm it.',
    30,
    { min: 1, max: 1000 },
  ),
  duplicate_window_minutes: wholeNumberSetting(
    'Minutes (0 to 1440) within which a SALE, AUTH or FORCED SALE for the same card and amount as an approved one is refused as a possible duplicate unless duplicate_override is sent; 0 turns the check off.',
    2,
    { min: 0, max: 1440 },
  ),
  confirm_amount_above: amountSetting(
    'A sale, tab or refund above this amount (dollars, like 1000.00) is said back in words and digits on the cashier screens and confirmed before the card is taken.',
    100_000,
  ),
  lock_after_minutes: wholeNumberSetting(
    'Minutes (0 to 240) without a touch after which the cashier screens lock until someone enters a PIN; 0 never locks by itself.',
    5,
    { min: 0, max: 240 },
  ),
  merchant_name: textSetting('The business name printed at the top of receipts (up to 48 characters).', '', {
    max: 48,
  }),
  merchant_address: textSetting(
    'The address printed under the name: up to 4 lines separated by | (up to 200 characters).',
    '',
    { max: 200, lines: 4 },
  ),
  merchant_phone: textSetting('The phone number printed under the address (up to 32 characters).', '', {
    max: 32,
  }),
  receipt_footer: textSetting(
    'Closing lines of every receipt, such as a returns policy: up to 4 lines separated by | (up to 200 characters).',
    '',
    { max: 200, lines: 4 },
  ),
  receipt_printer: textSetting(
    'The receipt printer: tcp://<host>:<port> for a network printer (raw ESC/POS, port 9100 on most), the name of a ' +
      'raw print queue of this computer, or empty for none.',
    '',
    { max: 270, pattern: PRINTER_PATTERN },
  ),
  receipt_width: {
    description: 'Characters per receipt line: 32 (58 mm paper), 42 or 48 (80 mm paper).',
    defaultValue: 42,
    parse: (text: string) => {
      const value = Number(text.trim());
      return /^\d+$/.test(text.trim()) && isReceiptWidth(value) ? value : undefined;
    },
    format: String,
  } satisfies SettingDefinition<ReceiptWidth>,
  receipt_customer_copy: choiceSetting(
    'The customer copy after an approval: always printed, ask (the cashier offers it), or never.',
    CUSTOMER_COPY_CHOICES,
    'ask',
  ),
  receipt_merchant_copy: choiceSetting(
    'The merchant copy to sign after an approval: always, above (when the total is above receipt_merchant_copy_above), or never.',
    MERCHANT_COPY_CHOICES,
    'never',
  ),
  receipt_merchant_copy_above: amountSetting(
    'With receipt_merchant_copy above: totals above this amount (dollars, like 25.00) print a merchant copy to sign.',
    2500,
  ),
  receipt_check: choiceSetting(
    'The check with TIP and TOTAL lines when a tab (AUTH) opens: always or never.',
    CHECK_CHOICES,
    'always',
  ),
  smtp_host: textSetting(
    'The mail server receipts are sent through (host name), or empty for no email.',
    '',
    {
      max: 253,
      pattern: /^[A-Za-z0-9.-]+$|^\[[0-9A-Fa-f:.]+\]$/,
    },
  ),
  smtp_port: wholeNumberSetting('The mail server port (1 to 65535): 587 with starttls, 465 with tls.', 587, {
    min: 1,
    max: 65535,
  }),
  smtp_security: choiceSetting(
    'How the mail connection is protected: starttls (upgrade, required), tls (from the start) or none.',
    SMTP_SECURITY_CHOICES,
    'starttls',
  ),
  smtp_user: textSetting('The mail account user name, or empty when the server needs none.', '', {
    max: 256,
  }),
  smtp_password: secretSetting('The mail account password; kept to log in, never shown back.'),
  smtp_from: textSetting('The sender address of receipt emails.', '', {
    max: 254,
    pattern: /^[^\s@<>]+@[^\s@<>]+$/,
  }),
  processor: choiceSetting(
    "Who approves payments: simulator (the built-in test issuer, for trying Tender out) or upstream (the merchant's hosted gateway at upstream_url).",
    PROCESSOR_CHOICES,
    'simulator',
  ),
  upstream_url: gatewayAddressSetting,
  upstream_api_key: secretSetting(
    "The API key of the merchant's gateway account; kept to sign each request, never shown back.",
  ),
  upstream_ca_file: certificateFileSetting,
  upstream_timeout_seconds: wholeNumberSetting(
    'Seconds (2 to 120) the gateway has to answer a request; the same again is spent looking up a request whose answer was lost.',
    20,
    { min: 2, max: 120 },
  ),
  offline_enabled: booleanSetting(
    'Store and forward (true or false): while the gateway cannot be reached at all, approve swiped sales within the offline limits and send them on when it is back.',
    false,
  ),
  offline_max_amount: positiveAmountSetting(
    'The largest sale (dollars, like 50.00) approved offline.',
    5_000,
  ),
  offline_max_total: positiveAmountSetting(
    'The most (dollars, like 500.00) that offline sales not yet forwarded may add up to, store-wide on a store server.',
    50_000,
  ),
  offline_max_hours: wholeNumberSetting(
    'Hours (1 to 168): no sale is approved offline while a sale waiting to be forwarded is older than this.',
    24,
    { min: 1, max: 168 },
  ),
};

export type SettingName = keyof typeof SETTING_DEFINITIONS;
export type SettingValues = { [K in SettingName]: (typeof SETTING_DEFINITIONS)[K]['defaultValue'] };

export function isSettingName(name: string): name is SettingName {
  return Object.hasOwn(SETTING_DEFINITIONS, name);
}

export class UnknownSettingError extends Error {}

/** Whether a setting is a key or password, kept secret (the BDK, the gateway's key, the mail password). */
export function isSecretSetting(name: string): boolean {
  return isSettingName(name) && definitionOf(name).secret === true;
}

/** The settings that are secrets, in the order they are listed. */
export const SECRET_SETTINGS: readonly SettingName[] = Object.keys(SETTING_DEFINITIONS).filter(
  (name): name is SettingName => isSecretSetting(name),
);

/** A setting saying where a secret is sent, and which changes of it send the secret elsewhere. */
interface SecretPlace {
  place: SettingName;
  /** Given the place's value before and after, both as stored. */
  moves: (before: string, after: string) => boolean;
}

/**
 * Where each secret setting is sent. A change that moves it is not what the secret was given for, so
 * the secret is cleared unless a new one comes with the change. A place first set (from empty) is
 * where a secret given before it was meant to go.
 */
const SECRET_PLACES: Partial<Record<SettingName, readonly SecretPlace[]>> = {
  smtp_password: [
    { place: 'smtp_host', moves: (before) => before !== '' },
    // Without protection the password would cross the network in the clear.
    { place: 'smtp_security', moves: (_before, after) => after === 'none' },
  ],
  upstream_api_key: [
    { place: 'upstream_url', moves: (before) => before !== '' },
    // Another certificate trusted lets another server answer for the same address.
    { place: 'upstream_ca_file', moves: (before) => before !== '' },
  ],
};

/** The definitions differ in value type; the Settings methods below keep each name to its own type. */
function definitionOf(name: SettingName): SettingDefinition<unknown> {
  return SETTING_DEFINITIONS[name] as unknown as SettingDefinition<unknown>;
}

/** The value `text` stands for as a setting, or undefined when it is not one (checked as when set). */
export function parseSetting<K extends SettingName>(name: K, text: string): SettingValues[K] | undefined {
  const definition = definitionOf(name);
  const value = definition.parse(text);
  if (value === undefined || definition.check?.(value) !== undefined) return undefined;
  return value as SettingValues[K];
}

/** The value of setting `name` that its stored text stands for (see valueOf). */
export function storedValue<K extends SettingName>(name: K, stored: string | undefined): SettingValues[K] {
  return valueOf(definitionOf(name), stored) as SettingValues[K];
}

/** The value a stored text stands for: the default when there is none, or none that parses. */
function valueOf(definition: SettingDefinition<unknown>, stored: string | undefined): unknown {
  return (stored === undefined ? undefined : definition.parse(stored)) ?? definition.defaultValue;
}

function shown(definition: SettingDefinition<unknown>, value: unknown): string {
  return definition.display ? definition.display(value) : definition.format(value);
}

/** Setting names with the text of their new values, as forms and the command line send them. */
export type SettingChanges = readonly (readonly [name: string, text: string])[];

/** How the BDK is shown while the processor is the merchant's gateway, when the engine holds none. */
const BDK_NOT_HELD =
  "none held: with processor upstream, swipes go to the merchant's gateway as the reader encrypted them";

/** What the settings ask of the rest of the engine. */
export interface SettingsOptions {
  /** A BDK was erased from the store: what is left of it in the store's files is erased next. */
  onBdkErased?: () => void;
}

export class Settings {
  readonly #onBdkErased: () => void;

  constructor(
    private readonly store: AdminStore,
    private readonly now: () => number = Date.now,
    options: SettingsOptions = {},
  ) {
    this.#onBdkErased = options.onBdkErased ?? (() => undefined);
  }

  get<K extends SettingName>(name: K): SettingValues[K] {
    return valueOf(definitionOf(name), this.store.setting(name)) as SettingValues[K];
  }

  all(): SettingValues {
    return Object.fromEntries(
      Object.keys(SETTING_DEFINITIONS).map((name) => [name, this.get(name as SettingName)]),
    ) as SettingValues;
  }

  /**
   * Whether the engine holds a BDK to decrypt swipes with: not while the processor is the merchant's
   * gateway, which gets each swipe as the reader encrypted it.
   */
  holdsBdk(): boolean {
    return this.get('processor') !== 'upstream';
  }

  /** The value as people may see it: secrets are described (with a key check value), never shown. */
  display(name: SettingName): string {
    if (name === 'swipe_bdk' && !this.holdsBdk()) return BDK_NOT_HELD;
    return shown(definitionOf(name), this.get(name));
  }

  /** Why `text` is not a value for the setting, or undefined when it is one. */
  refusal(name: string, text: string): string | undefined {
    if (!isSettingName(name)) {
      return `Unknown setting "${name}". Known: ${Object.keys(SETTING_DEFINITIONS).join(', ')}.`;
    }
    const definition = definitionOf(name);
    const value = definition.parse(text);
    if (value !== undefined) return definition.check?.(value);
    // Neither a secret nor what may be a card number is repeated: a refusal is shown and logged.
    const shown =
      definition.secret || mightHoldCardNumber(text)
        ? 'That value'
        : `"${definition.refused?.(text) ?? text}"`;
    return `${shown} is not a valid value for ${name}: ${definition.description}`;
  }

  /**
   * Why settings that are each valid cannot stand together once `changes` are made: the gateway
   * chosen without its address or key, an offline sale allowed above the offline total.
   */
  togetherRefusal(changes: ReadonlyMap<SettingName, unknown>): string | undefined {
    const after = <K extends SettingName>(name: K): SettingValues[K] =>
      (changes.has(name) ? changes.get(name) : this.get(name)) as SettingValues[K];
    if (changes.has('swipe_bdk') && after('processor') === 'upstream') return NO_BDK_BESIDE_GATEWAY;
    if (after('processor') === 'upstream') {
      const missing = (['upstream_url', 'upstream_api_key'] as const).filter((name) => after(name) === '');
      if (missing.length > 0) {
        return `processor upstream needs ${missing.join(' and ')} set first: Tender sends each payment to that gateway with that key.`;
      }
    }
    if (after('offline_max_amount') > after('offline_max_total')) {
      return `offline_max_amount (${formatMoney(after('offline_max_amount'))}) cannot be above offline_max_total (${formatMoney(after('offline_max_total'))}).`;
    }
    return undefined;
  }

  /**
   * The secrets a change would send somewhere they were not given for, each as a change clearing it:
   * the mail password when the mail server changes, or its protection is turned off; the gateway's
   * key when the gateway's address changes. A secret given in the same change is kept.
   */
  #secretsLeftBehind(
    given: readonly { name: SettingName; definition: SettingDefinition<unknown>; value: unknown }[],
  ): { name: SettingName; definition: SettingDefinition<unknown>; value: unknown }[] {
    const moved = ({ place, moves }: SecretPlace) =>
      given.some(({ name, definition, value }) => {
        if (name !== place) return false;
        const before = definition.format(this.get(name));
        const after = definition.format(value);
        return before !== after && moves(before, after);
      });
    return (Object.entries(SECRET_PLACES) as [SettingName, readonly SecretPlace[]][])
      .filter(
        ([secret, places]) =>
          this.get(secret) !== '' && !given.some(({ name }) => name === secret) && places.some(moved),
      )
      .map(([secret]) => {
        const definition = definitionOf(secret);
        return { name: secret, definition, value: definition.parse('') };
      });
  }

  /** Whether setting `text` would change what is stored (a value already in place is not written again). */
  wouldChange(name: SettingName, text: string): boolean {
    const definition = definitionOf(name);
    const value = definition.parse(text);
    return value === undefined || definition.format(value) !== definition.format(this.get(name));
  }

  /** Sets a setting from text, as the CLI and the settings screen receive it; settles once committed. */
  setFromText(name: string, text: string, actor: string = LOCAL_ADMINISTRATOR): Promise<void> {
    return this.change([[name, text]], actor);
  }

  /**
   * Sets several settings in one write, each with its audit entry. Every value is checked before any
   * is written, so a bad one changes nothing. `also` runs last in the same write: when it throws,
   * nothing is kept.
   */
  async change(
    changes: SettingChanges,
    actor: string = LOCAL_ADMINISTRATOR,
    also?: (tx: AdminWrite) => Promise<void>,
  ): Promise<void> {
    const given = changes.map(([name, text]) => {
      const refusal = this.refusal(name, text);
      if (refusal !== undefined || !isSettingName(name)) throw new UnknownSettingError(refusal);
      const definition = definitionOf(name);
      return { name, definition, value: definition.parse(text) };
    });
    const checked = [...given, ...this.#secretsLeftBehind(given)];
    const together = this.togetherRefusal(
      new Map(checked.map(({ name, value }) => [name, value] as [SettingName, unknown])),
    );
    if (together !== undefined) throw new UnknownSettingError(together);
    const processor = checked.find(({ name }) => name === 'processor')?.value as ProcessorChoice | undefined;
    const setsBdk = checked.some(({ name }) => name === 'swipe_bdk');
    const erasesBdk = processor === 'upstream';
    if (checked.length === 0 && also === undefined) return;
    let erased = false;
    await this.store.write(async (tx) => {
      if (processor !== undefined || setsBdk) await refuseWhileSwipesKept(tx, processor, setsBdk);
      // The merchant's gateway gets swipes as the reader encrypted them: the engine keeps no BDK that
      // could decrypt one kept to be forwarded. Erased in the same write that chooses the gateway.
      if (erasesBdk) erased = await this.#eraseBdk(tx, actor);
      for (const { name, definition, value } of checked) {
        const before = valueOf(definition, await tx.setting(name));
        // Saved again with the value it has (its default included): nothing changes, nothing is recorded.
        if (definition.format(before) === definition.format(value)) continue;
        await tx.setSetting(name, definition.format(value));
        await tx.appendAudit({
          at: this.now(),
          actor,
          action: 'setting_change',
          subject: name,
          detail: `${shown(definition, before)} → ${shown(definition, value)}`,
        });
      }
      await also?.(tx);
    });
    if (erased) this.#onBdkErased();
  }

  /**
   * Erases a BDK kept from before the merchant's gateway was the processor (a data dir or store from
   * an earlier version), with its audit entry; run as the engine starts.
   */
  async eraseBdkNotHeld(actor: string = LOCAL_ADMINISTRATOR): Promise<void> {
    if (this.holdsBdk() || !this.store.setting('swipe_bdk')) return;
    let erased = false;
    await this.store.write(async (tx) => {
      if ((await tx.setting('processor')) !== 'upstream') return;
      erased = await this.#eraseBdk(tx, actor);
    });
    if (erased) this.#onBdkErased();
  }

  /** Erases the stored BDK in `tx`, recording that it was (by its check value only); false when none was stored. */
  async #eraseBdk(tx: AdminWrite, actor: string): Promise<boolean> {
    const stored = await tx.setting('swipe_bdk');
    if (!stored) return false;
    await tx.setSetting('swipe_bdk', '');
    await tx.appendAudit({
      at: this.now(),
      actor,
      action: 'setting_change',
      subject: 'swipe_bdk',
      detail: `${shown(swipeKeySetting, valueOf(swipeKeySetting, stored))} → erased: processor upstream holds no BDK`,
    });
    return true;
  }
}

const NO_BDK_BESIDE_GATEWAY =
  "swipe_bdk cannot be set while processor is upstream: swipes go to the merchant's gateway as the " +
  'reader encrypted them, and Tender holds no BDK, so that nothing on the counter or the store server ' +
  'can decrypt a swipe it keeps. Nothing was changed.';

/**
 * Inside a settings write that changes the processor to `processor` or sets a BDK: refuses a BDK
 * beside the merchant's gateway, and either change while anything made offline waits to be
 * forwarded. Decided from the processor as stored, locked by this write (another counter of the
 * store may have changed it since this one heard), and from what waits counted under the lock an
 * offline approval holds to its commit: a sale approved offline meanwhile is either counted here,
 * or finds the processor changed and is not approved offline (operations/forwarding.ts).
 */
async function refuseWhileSwipesKept(
  tx: AdminWrite,
  processor: ProcessorChoice | undefined,
  setsBdk: boolean,
): Promise<void> {
  const stored = storedValue('processor', await tx.setting('processor'));
  if (setsBdk && (processor ?? stored) === 'upstream') throw new UnknownSettingError(NO_BDK_BESIDE_GATEWAY);
  const leavesGateway = processor !== undefined && processor !== 'upstream' && stored === 'upstream';
  if (!leavesGateway && !setsBdk) return;
  const waiting = await tx.waitingForwards();
  if (waiting > 0)
    throw new UnknownSettingError(waitingRefusal(waiting, setsBdk ? 'swipe_bdk' : 'processor'));
}

/** Why `name` cannot be changed while `waiting` transactions made offline wait to be forwarded. */
function waitingRefusal(waiting: number, name: 'processor' | 'swipe_bdk'): string {
  const what =
    waiting === 1
      ? "1 transaction made offline still waits to be forwarded to the merchant's gateway"
      : `${waiting} transactions made offline still wait to be forwarded to the merchant's gateway`;
  const change = name === 'processor' ? 'processor cannot leave upstream' : 'swipe_bdk cannot be set';
  const todo =
    name === 'processor'
      ? 'Leave processor upstream until nothing waits, then change it'
      : 'Set it once nothing waits';
  return (
    `${change} while ${what}: each is kept as the reader encrypted it, for the gateway alone. ${todo} ` +
    '(Tender sends them by itself once the gateway answers; the screens and the batch close show what ' +
    'waits). Nothing was changed.'
  );
}
