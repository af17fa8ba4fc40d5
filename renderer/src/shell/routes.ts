/**
 * The screens of the counter and their addresses. The address fragment names the screen (`#tabs`),
 * so each has a link, the browser's back button works, and Electron treats the move as an in-page
 * navigation, which its navigation guard allows.
 */
export const SCREENS = [
  { id: 'sale', label: 'Sale' },
  { id: 'tabs', label: 'Tabs' },
  { id: 'refunds', label: 'Refund & void' },
  { id: 'history', label: 'History' },
  { id: 'end-of-day', label: 'End of day' },
  { id: 'settings', label: 'Settings' },
] as const;

export type ScreenId = (typeof SCREENS)[number]['id'];

const IDS: readonly string[] = SCREENS.map((screen) => screen.id);

/** The screen a fragment names; the sale screen for anything else (an empty fragment, a pairing ticket). */
export function screenOf(hash: string): ScreenId {
  const name = hash.replace(/^#/, '').split(/[/?&=]/)[0] ?? '';
  return IDS.includes(name) ? (name as ScreenId) : 'sale';
}

export function screenHref(screen: ScreenId): string {
  return `#${screen}`;
}

/** The address of one transaction's details on Refund & void, as History links to it. */
export function transactionHref(id: string): string {
  return `#refunds/${id}`;
}

/** The transaction an address names (`#refunds/42`), if any. */
export function transactionOf(hash: string): string | undefined {
  return /^#refunds\/(\d{1,18})$/.exec(hash)?.[1];
}
