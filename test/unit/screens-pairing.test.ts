/**
 * How a page becomes one of the counter's screens: single-use, short-lived tickets handed over in a
 * file only the counter's user can read, and a credential made for the one page that redeemed one.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  LAUNCH_PAGE_CHECK_MS,
  screensPairingLayout,
  ScreensPairing,
  TICKET_LIFETIME_MS,
} from '../../electron/bridge/screens-pairing';

let dataDir: string;
let now: number;
const clock = () => now;

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'tender-pairing-'));
  now = 1_800_000_000_000;
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

const ticketIn = (page: string) => /#pair=([A-Za-z0-9_-]{43})"/.exec(page)?.[1] ?? '';

describe('a pairing ticket', () => {
  it('pairs one page once, and nothing after it is spent or has run out', () => {
    const pairing = ScreensPairing.open(dataDir, clock);
    const ticket = pairing.issueTicket();
    const credential = pairing.redeem(ticket);
    expect(credential).toMatch(/^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/);
    expect(pairing.redeem(ticket)).toBeUndefined();

    const late = pairing.issueTicket();
    now += TICKET_LIFETIME_MS;
    expect(pairing.redeem(late)).toBeUndefined();
    expect(pairing.redeem('a-ticket-nobody-issued')).toBeUndefined();
  });

  it('reaches the browser in a launch page only the counter’s user can read, renewed once used', () => {
    const pairing = ScreensPairing.open(dataDir, clock);
    pairing.keepLaunchPage('https://127.0.0.1:8443');
    const { dir, launchPage, pageKey } = screensPairingLayout(dataDir);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(launchPage).mode & 0o777).toBe(0o600);
    expect(statSync(pageKey).mode & 0o777).toBe(0o600);
    const page = readFileSync(launchPage, 'utf8');
    expect(page).toMatch(/content="0;url=https:\/\/127\.0\.0\.1:8443\/#pair=[A-Za-z0-9_-]{43}"/);
    expect(page).not.toContain('<script');

    expect(pairing.redeem(ticketIn(page))).toBeDefined();
    const next = readFileSync(launchPage, 'utf8');
    expect(ticketIn(next)).not.toBe(ticketIn(page));
    expect(pairing.redeem(ticketIn(next))).toBeDefined();

    pairing.close();
    expect(() => statSync(launchPage)).toThrow();
  });
});

describe('a launch page left unopened', () => {
  afterEach(() => vi.useRealTimers());

  it('always holds a ticket that opens it, however long the engine has run', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const pairing = ScreensPairing.open(dataDir, clock);
    pairing.keepLaunchPage('https://127.0.0.1:8443');
    const { launchPage, customerLaunchPage } = screensPairingLayout(dataDir);
    // An hour and a quarter, each check on time; then a page read just before the next check, the
    // longest any ticket stays on disk, opens a screen.
    for (let check = 1; check <= 30; check++) {
      now += LAUNCH_PAGE_CHECK_MS;
      vi.advanceTimersByTime(LAUNCH_PAGE_CHECK_MS);
    }
    now += LAUNCH_PAGE_CHECK_MS - 1;
    expect(pairing.redeem(ticketIn(readFileSync(launchPage, 'utf8')))).toBeDefined();
    expect(pairing.redeem(ticketIn(readFileSync(customerLaunchPage, 'utf8')))).toBeDefined();
    pairing.close();
  });
});

describe('a page’s credential', () => {
  it('is known again by an engine restarted on the same data dir, and by no other', () => {
    const first = ScreensPairing.open(dataDir, clock);
    const credential = first.redeem(first.issueTicket()) ?? '';
    const page = first.pageOf(credential);
    expect(page).toMatchObject({ role: 'cashier' });
    first.close();

    expect(ScreensPairing.open(dataDir, clock).pageOf(credential)).toEqual(page);
    const elsewhere = mkdtempSync(join(tmpdir(), 'tender-pairing-other-'));
    try {
      expect(ScreensPairing.open(elsewhere, clock).pageOf(credential)).toBeUndefined();
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('is refused when altered, and every page’s once the page key is deleted', () => {
    const pairing = ScreensPairing.open(dataDir, clock);
    const credential = pairing.redeem(pairing.issueTicket()) ?? '';
    const [pageId = '', mac = ''] = credential.split('.');
    const otherId = `${pageId.slice(0, -1)}${pageId.endsWith('A') ? 'B' : 'A'}`;
    expect(pairing.pageOf(`${otherId}.${mac}`)).toBeUndefined();
    expect(pairing.pageOf(pageId)).toBeUndefined();

    rmSync(screensPairingLayout(dataDir).pageKey);
    expect(ScreensPairing.open(dataDir, clock).pageOf(credential)).toBeUndefined();
  });

  it('names its role: a customer’s page is a customer’s, and cannot make itself a cashier’s', () => {
    const pairing = ScreensPairing.open(dataDir, clock);
    const cashier = pairing.redeem(pairing.issueTicket()) ?? '';
    const customer = pairing.redeem(pairing.issueTicket('customer')) ?? '';
    expect(customer).toMatch(/^customer\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/);
    expect(pairing.pageOf(customer)).toMatchObject({ role: 'customer' });
    expect(pairing.pageOf(cashier)).toMatchObject({ role: 'cashier' });
    // The role is inside the MAC: dropping or adding the prefix is a credential nobody made.
    expect(pairing.pageOf(customer.slice('customer.'.length))).toBeUndefined();
    expect(pairing.pageOf(`customer.${cashier}`)).toBeUndefined();
  });

  it('the customer’s screen has a launch page of its own, for its own address', () => {
    const pairing = ScreensPairing.open(dataDir, clock);
    pairing.keepLaunchPage('https://127.0.0.1:8443');
    const page = readFileSync(pairing.customerLaunchPagePath, 'utf8');
    expect(statSync(pairing.customerLaunchPagePath).mode & 0o777).toBe(0o600);
    expect(page).toMatch(/content="0;url=https:\/\/127\.0\.0\.1:8443\/customer#pair=[A-Za-z0-9_-]{43}"/);
    const credential = pairing.redeem(ticketIn(page)) ?? '';
    expect(pairing.pageOf(credential)).toMatchObject({ role: 'customer' });
    // Used, it holds a new ticket; the cashier's launch page is untouched.
    expect(ticketIn(readFileSync(pairing.customerLaunchPagePath, 'utf8'))).not.toBe(ticketIn(page));
    pairing.close();
    expect(() => statSync(pairing.customerLaunchPagePath)).toThrow();
  });

  it('replaces the one shared token of earlier versions, which is removed at start', () => {
    const { formerToken } = screensPairingLayout(dataDir);
    writeFileSync(formerToken, 'Qm9yZWQgdG9rZW4gZnJvbSBhbiBlYXJsaWVyIHZlcnNpb24\n');
    ScreensPairing.open(dataDir, clock);
    expect(() => statSync(formerToken)).toThrow();
  });
});
