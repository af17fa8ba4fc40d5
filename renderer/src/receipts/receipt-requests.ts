/** The receipt requests the screens send through the bridge, with their answers in the cashier's words. */
import type { ReceiptCopyName, TenderBridge } from '../../../shared/ipc/contract';

export type Delivery = { ok: true; message: string } | { ok: false; message: string };

/** The bridge's refusal message, or a plain one when the bridge itself failed. */
export function messageOf(error: unknown): string {
  return error instanceof Error && error.message ? error.message : 'Tender could not reach the printer.';
}

export async function printCopies(
  bridge: TenderBridge,
  id: number,
  copies: ReceiptCopyName[],
): Promise<Delivery> {
  try {
    return { ok: true, message: (await bridge.invoke('receipts:print', { id, copies })).message };
  } catch (error) {
    return { ok: false, message: messageOf(error) };
  }
}

export async function emailReceipt(bridge: TenderBridge, id: number, to: string): Promise<Delivery> {
  try {
    const trimmed = to.trim();
    const answer = await bridge.invoke('receipts:email', { id, ...(trimmed !== '' && { to: trimmed }) });
    return { ok: true, message: answer.message };
  } catch (error) {
    return { ok: false, message: messageOf(error) };
  }
}

/** What the settings print by themselves happens once per transaction, however often its answer is shown. */
const handled = new Set<number>();

export function firstTimeFor(id: number): boolean {
  if (handled.has(id)) return false;
  handled.add(id);
  return true;
}
