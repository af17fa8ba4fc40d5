/** The gateway settings a merchant can change, with their defaults and the forms they accept. */
import type { SettingsStore } from './store/settings';

interface SettingDefinition<T> {
  description: string;
  defaultValue: T;
  parse(text: string): T | undefined;
  format(value: T): string;
}

const booleanSetting = (description: string, defaultValue: boolean): SettingDefinition<boolean> => ({
  description,
  defaultValue,
  parse: (text) => (/^(true|false)$/i.test(text.trim()) ? text.trim().toLowerCase() === 'true' : undefined),
  format: String,
});

export const SETTING_DEFINITIONS = {
  tips_enabled: booleanSetting('Accept tip_amount on CAPTURE and FORCED SALE (true or false).', false),
};

export type SettingName = keyof typeof SETTING_DEFINITIONS;
export type SettingValues = { [K in SettingName]: (typeof SETTING_DEFINITIONS)[K]['defaultValue'] };

export function isSettingName(name: string): name is SettingName {
  return Object.hasOwn(SETTING_DEFINITIONS, name);
}

export class UnknownSettingError extends Error {}

export class Settings {
  constructor(private readonly store: SettingsStore) {}

  get<K extends SettingName>(name: K): SettingValues[K] {
    const definition = SETTING_DEFINITIONS[name];
    const stored = this.store.get(name);
    return (stored === undefined ? undefined : definition.parse(stored)) ?? definition.defaultValue;
  }

  all(): SettingValues {
    return Object.fromEntries(
      Object.keys(SETTING_DEFINITIONS).map((name) => [name, this.get(name as SettingName)]),
    ) as SettingValues;
  }

  /** Sets a setting from text, as the CLI and the settings screen receive it. */
  setFromText(name: string, text: string): void {
    if (!isSettingName(name)) {
      throw new UnknownSettingError(
        `Unknown setting "${name}". Known: ${Object.keys(SETTING_DEFINITIONS).join(', ')}.`,
      );
    }
    const definition = SETTING_DEFINITIONS[name];
    const value = definition.parse(text);
    if (value === undefined) {
      throw new UnknownSettingError(`"${text}" is not a valid value for ${name}: ${definition.description}`);
    }
    this.store.set(name, definition.format(value));
  }
}
