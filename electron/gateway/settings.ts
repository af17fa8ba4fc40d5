/** The gateway settings a merchant can change, with their defaults and the forms they accept. */
import { ANSI_TEST_BDK, keyCheckValue } from './crypto/dukpt';
import { LOCAL_ADMINISTRATOR } from './keys';
import type { AuditLog } from './store/audit';
import type { SettingsStore } from './store/settings';

interface SettingDefinition<T> {
  description: string;
  defaultValue: T;
  parse(text: string): T | undefined;
  format(value: T): string;
  /** How the value is shown to people; a secret is never shown, only described. */
  display?(value: T): string;
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
  display: (value) =>
    value === ANSI_TEST_BDK
      ? `ANSI test BDK (TEST ONLY: set the BDK your readers were injected with), KCV ${keyCheckValue(value)}`
      : `custom BDK, KCV ${keyCheckValue(value)}`,
};

export const SETTING_DEFINITIONS = {
  tips_enabled: booleanSetting('Accept tip_amount on CAPTURE and FORCED SALE (true or false).', false),
  swipe_bdk: swipeKeySetting,
  auth_expiry_days: daysSetting(
    'Days an approved AUTH can still be captured (1 to 999); older ones are expired and their hold released.',
    7,
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
};

export type SettingName = keyof typeof SETTING_DEFINITIONS;
export type SettingValues = { [K in SettingName]: (typeof SETTING_DEFINITIONS)[K]['defaultValue'] };

export function isSettingName(name: string): name is SettingName {
  return Object.hasOwn(SETTING_DEFINITIONS, name);
}

export class UnknownSettingError extends Error {}

/** The definitions differ in value type; the Settings methods below keep each name to its own type. */
function definitionOf(name: SettingName): SettingDefinition<unknown> {
  return SETTING_DEFINITIONS[name] as unknown as SettingDefinition<unknown>;
}

export class Settings {
  constructor(
    private readonly store: SettingsStore,
    private readonly audit: AuditLog,
    private readonly now: () => number = Date.now,
  ) {}

  get<K extends SettingName>(name: K): SettingValues[K] {
    const definition = definitionOf(name);
    const stored = this.store.get(name);
    return ((stored === undefined ? undefined : definition.parse(stored)) ??
      definition.defaultValue) as SettingValues[K];
  }

  all(): SettingValues {
    return Object.fromEntries(
      Object.keys(SETTING_DEFINITIONS).map((name) => [name, this.get(name as SettingName)]),
    ) as SettingValues;
  }

  /** The value as people may see it: secrets are described (with a key check value), never shown. */
  display(name: SettingName): string {
    const definition = definitionOf(name);
    const value = this.get(name);
    return definition.display ? definition.display(value) : definition.format(value);
  }

  /** Sets a setting from text, as the CLI and the settings screen receive it. */
  setFromText(name: string, text: string, actor: string = LOCAL_ADMINISTRATOR): void {
    if (!isSettingName(name)) {
      throw new UnknownSettingError(
        `Unknown setting "${name}". Known: ${Object.keys(SETTING_DEFINITIONS).join(', ')}.`,
      );
    }
    const definition = definitionOf(name);
    const value = definition.parse(text);
    if (value === undefined) {
      const shown = definition.display ? 'That value' : `"${text}"`;
      throw new UnknownSettingError(`${shown} is not a valid value for ${name}: ${definition.description}`);
    }
    this.audit.atomically(() => {
      const before = this.display(name);
      this.store.set(name, definition.format(value));
      this.audit.append({
        at: this.now(),
        actor,
        action: 'setting_change',
        subject: name,
        detail: `${before} → ${this.display(name)}`,
      });
    });
  }
}
