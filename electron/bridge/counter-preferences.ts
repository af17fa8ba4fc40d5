/**
 * Settings of the counter that the engine has no use for: the tip percentages the screens suggest,
 * whether this counter shows the customer's screen, and the manager PIN's hash. They live in one
 * small file in the data dir, beside the ledger, so that the desktop app and `serve --renderer` share
 * them, and each counter of a store keeps its own (a second display is a counter's hardware).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tipPercentagesSchema } from '../../shared/ipc/contract';
import { writeFileAtomically } from '../gateway/atomic-file';
import { DEFAULT_TIP_PERCENTAGES } from '../gateway/receipts/receipt';
import { isStoredPin, type StoredPin } from './manager-pin';

export const COUNTER_SETTINGS_FILE = 'counter-settings.json';

/** The tip percentages this data dir's counter suggests, as its tab screen and its checks use them. */
export function counterTipPercentages(dataDir: string): number[] {
  return CounterPreferences.open(dataDir).tipPercentages;
}

interface StoredPreferences {
  version: 1;
  tipPercentages: number[];
  /** Absent in files written before the customer's screen: on, as for a new counter. */
  customerScreen: boolean;
  managerPin: StoredPin | null;
}

export class DamagedPreferencesError extends Error {}

export class CounterPreferences {
  #stored: StoredPreferences;

  private constructor(
    private readonly file: string,
    stored: StoredPreferences,
  ) {
    this.#stored = stored;
  }

  static open(dataDir: string): CounterPreferences {
    const file = join(dataDir, COUNTER_SETTINGS_FILE);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      return new CounterPreferences(file, {
        version: 1,
        tipPercentages: [...DEFAULT_TIP_PERCENTAGES],
        customerScreen: true,
        managerPin: null,
      });
    }
    return new CounterPreferences(file, parse(text, file));
  }

  get tipPercentages(): number[] {
    return [...this.#stored.tipPercentages];
  }

  /** What is kept, as it is now. */
  snapshot(): Readonly<Omit<StoredPreferences, 'version' | 'managerPin'>> {
    return { tipPercentages: this.tipPercentages, customerScreen: this.customerScreen };
  }

  get customerScreen(): boolean {
    return this.#stored.customerScreen;
  }

  get managerPin(): StoredPin | null {
    return this.#stored.managerPin;
  }

  /** Writes the change through a temporary file, so a crash leaves either the old file or the new one. */
  update(change: Partial<Omit<StoredPreferences, 'version'>>): void {
    const next = { ...this.#stored, ...change };
    writeFileAtomically(this.file, `${JSON.stringify(next, null, 2)}\n`, 0o600);
    this.#stored = next;
  }
}

/**
 * A damaged file stops the counter rather than being replaced by defaults: falling back would turn a
 * manager PIN off without anyone asking.
 */
function parse(text: string, file: string): StoredPreferences {
  const damaged = () =>
    new DamagedPreferencesError(
      `${file} is damaged. Restore it from a backup, or delete it to go back to the default tip percentages ` +
        'with no manager PIN.',
    );
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw damaged();
  }
  const record = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const tips = tipPercentagesSchema.safeParse(record.tipPercentages);
  const pin = record.managerPin;
  const customerScreen = record.customerScreen ?? true;
  if (
    record.version !== 1 ||
    !tips.success ||
    typeof customerScreen !== 'boolean' ||
    !(pin === null || isStoredPin(pin))
  ) {
    throw damaged();
  }
  return { version: 1, tipPercentages: tips.data, customerScreen, managerPin: pin };
}
