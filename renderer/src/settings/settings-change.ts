/** Settings changes need a manager (signed in, or their PIN); the host checks it again before changing anything. */
import { useCallback } from 'react';
import { BridgeCallError } from '../../../shared/ipc/facade';
import { useManagerApproval } from '../manager/manager-approval';

export type ChangeResult<T> =
  { ok: true; value: T } | { ok: false; cancelled: true } | { ok: false; problem: string };

export function useSettingsChange() {
  const approve = useManagerApproval();
  return useCallback(
    async <T>(change: (pin: string | undefined) => Promise<T>): Promise<ChangeResult<T>> => {
      const approval = await approve('settings');
      if (approval === null) return { ok: false, cancelled: true };
      try {
        return { ok: true, value: await change(approval.pin) };
      } catch (error) {
        return {
          ok: false,
          problem:
            error instanceof BridgeCallError
              ? error.message
              : error instanceof Error
                ? error.message
                : String(error),
        };
      }
    },
    [approve],
  );
}

/** Copies text to the clipboard; false when the page may not (the text is then selected for Ctrl+C). */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
