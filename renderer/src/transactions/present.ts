/** Transactions and batches of the list API as the screens show them: money as money, cards masked, local times. */
import type { TransactionListItem } from '../../../shared/api/schemas';
import { brandLabel, type CardBrand } from '../../../shared/cards';
import { displayMoney, parseMoney } from '../../../shared/money';

/** Cents of a money string of the wire ("25.00"); 0 for an empty one. */
export function centsOf(money: string): number {
  if (money === '') return 0;
  const parsed = parseMoney(money, { allowZero: true });
  return parsed.ok ? parsed.cents : 0;
}

export function moneyOf(money: string): string {
  return displayMoney(centsOf(money));
}

const BRANDS: readonly string[] = ['visa', 'mastercard', 'amex', 'discover', 'diners', 'jcb', 'unionpay'];

/** "Visa •••• 1111": the brand and the last four digits, the most the screens show of a card. */
export function cardLabel(item: Pick<TransactionListItem, 'card' | 'card_brand'>): string {
  const lastFour = item.card.slice(-4);
  if (!lastFour) return 'No card';
  const brand = BRANDS.includes(item.card_brand) ? (item.card_brand as CardBrand) : 'unknown';
  return `${brandLabel(brand)} •••• ${lastFour}`;
}

export function holderOf(item: Pick<TransactionListItem, 'first_name' | 'last_name'>): string {
  return [item.first_name, item.last_name].filter(Boolean).join(' ');
}

const DAY = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });
const DAY_YEAR = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
const TIME = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' });

/** "Nov 20, 2:05 PM" (with the year when it is not this year). */
export function timeLabel(iso: string, now = new Date()): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  const day = at.getFullYear() === now.getFullYear() ? DAY.format(at) : DAY_YEAR.format(at);
  return `${day}, ${TIME.format(at)}`;
}

/** "2:05 PM" */
export function clockLabel(iso: string): string {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? '' : TIME.format(at);
}

/** How long ago, for open tabs: "just now", "12 min", "2 h 05 min", "3 days". */
export function ageLabel(iso: string, now: number): string {
  const minutes = Math.max(0, Math.floor((now - Date.parse(iso)) / 60_000));
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ${String(minutes % 60).padStart(2, '0')} min`;
  const days = Math.floor(hours / 24);
  return counted(days, 'day');
}

/**
 * How long until, for expiring tabs: "in 3 days", "in 5 h", "in 20 min". Days are the nearest whole
 * number, so a tab just opened with auth_expiry_days 7 says 7 days, not the 6 days and 23 hours left.
 */
export function untilLabel(iso: string, now: number): string {
  const minutes = Math.floor((Date.parse(iso) - now) / 60_000);
  if (minutes < 60) return `in ${Math.max(minutes, 0)} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `in ${hours} h`;
  return `in ${counted(Math.round(minutes / 1440), 'day')}`;
}

/**
 * What a transaction is, in the screens' words: its type, except for a sale tipped at the counter,
 * recorded as an AUTH of the total captured at once with the tip. Its capture is the Sale the
 * customer made, and its authorization that sale's hold on the card; neither is a tab.
 */
export function kindOf(item: TransactionListItem): string {
  if (item.counter_sale === 'true') {
    if (item.type === 'Capture') return 'Sale';
    if (item.type === 'Auth') return 'Sale hold';
  }
  return item.type;
}

/** A short status of a transaction for lists: what became of it. */
export function statusOf(item: TransactionListItem): {
  label: string;
  tone: 'good' | 'bad' | 'warn' | 'muted';
} {
  if (item.result !== 'Approved') {
    return { label: item.result, tone: item.result === 'Declined' ? 'bad' : 'warn' };
  }
  if (item.forward_state === 'declined') return { label: 'Declined when sent', tone: 'bad' };
  if (item.voided === 'true') return { label: 'Voided', tone: 'muted' };
  if (item.forward_state === 'waiting') return { label: 'Offline, not sent yet', tone: 'warn' };
  if (item.type === 'Void') return { label: `Voids #${item.original_id}`, tone: 'muted' };
  if (item.type === 'Auth') {
    if (item.captured === 'true') return { label: 'Captured', tone: 'muted' };
    // A counter sale's hold whose capture did not go through: the sale is not finished.
    return item.counter_sale === 'true'
      ? { label: 'Not captured', tone: 'warn' }
      : { label: 'Open tab', tone: 'warn' };
  }
  const refunded = centsOf(item.refunded_amount);
  if (refunded > 0) {
    return refunded >= centsOf(item.amount)
      ? { label: 'Refunded', tone: 'muted' }
      : { label: `${displayMoney(refunded)} refunded`, tone: 'warn' };
  }
  return { label: item.offline === 'true' ? 'Approved offline' : 'Approved', tone: 'good' };
}

/** "1 refund", "2 refunds". */
export function counted(count: number | string, noun: string, plural = `${noun}s`): string {
  return `${count} ${Number(count) === 1 ? noun : plural}`;
}
