/**
 * How a browser page becomes one of this counter's screens. Nothing that opens the bridge is ever put
 * on a command line or printed: the process list and a terminal's scrollback are readable by others.
 *
 * - A **pairing ticket** opens the door once. It is random, single-use and short-lived, kept by the
 *   engine in memory only, and reaches the browser through a file only the counter's user can read:
 *   the launch page `screens/open-screens.html` in the data dir (0600 in a 0700 folder), which
 *   redirects to the screens with the ticket in the address's fragment. The engine keeps one unused
 *   ticket in that page and writes a new one when it is used or runs out, so the page opens exactly
 *   one more screen each time.
 * - The page then holds a **page credential**, made for it alone when it redeemed the ticket and kept
 *   only in that tab's session storage. It is the page's id and a MAC of it under the data dir's page
 *   key (`screens/page.key`, 0600), so an engine restarted on the same data dir still knows the page
 *   and the open screen reconnects by itself. The socket takes either only from the screens' own
 *   Origin, and one page id has one socket at a time.
 * - Each ticket, and so each credential, is for one **role**: the cashier's screens, or the
 *   customer's screen (`/customer`, its own launch page `screens/open-customer-screen.html`). The
 *   role is inside the MAC, so a customer's page cannot make itself a cashier's: the host answers it
 *   only the few requests of the customer's screen.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { BRIDGE_PAIRING_PARAMETER } from '../../shared/ipc/socket-protocol';
import { writeFileAtomically } from '../gateway/atomic-file';

/** How long a ticket opens the door: the launch page is rewritten with a new one after this. */
export const TICKET_LIFETIME_MS = 10 * 60_000;
/** How often the launch pages' tickets are looked at, to be renewed in time. */
export const LAUNCH_PAGE_CHECK_MS = TICKET_LIFETIME_MS / 4;
/** Tickets handed out and not yet used, at most; the oldest gives way. */
const TICKETS_KEPT = 64;
const KEY_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** A cashier's credential is `<page id>.<mac>`, as before roles; a customer's is prefixed `customer.`. */
const CREDENTIAL_PATTERN = /^(?:(customer)\.)?([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

/** Who a paired page is to the counter. */
export type ScreenRole = 'cashier' | 'customer';

/** The path each role's page is served at. */
export const SCREEN_PATHS: Record<ScreenRole, string> = { cashier: '/', customer: '/customer' };

export interface PairedPage {
  pageId: string;
  role: ScreenRole;
}

/** Where a data dir keeps what pairs the screens; the folder is the counter's user's alone. */
export function screensPairingLayout(dataDir: string) {
  const dir = join(dataDir, 'screens');
  return {
    dir,
    pageKey: join(dir, 'page.key'),
    launchPage: join(dir, 'open-screens.html'),
    customerLaunchPage: join(dir, 'open-customer-screen.html'),
    /** The one token every page shared before pages were paired one by one; removed at start. */
    formerToken: join(dataDir, 'bridge-token'),
  };
}

const digest = (text: string) => createHash('sha256').update(text).digest();

function loadPageKey(file: string): Buffer {
  try {
    const kept = readFileSync(file, 'utf8').trim();
    if (KEY_PATTERN.test(kept)) return Buffer.from(kept, 'base64url');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const key = randomBytes(32);
  writeFileAtomically(file, `${key.toString('base64url')}\n`, 0o600);
  return key;
}

/** The launch page: no script, no network of its own; it only sends the browser on with the ticket. */
function launchPage(target: string, role: ScreenRole): string {
  const escaped = target.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  return [
    '<!doctype html>',
    '<meta charset="utf-8">',
    '<meta name="referrer" content="no-referrer">',
    `<meta http-equiv="refresh" content="0;url=${escaped}">`,
    '<title>Tender</title>',
    `<p>Opening the ${role === 'customer' ? 'customer screen' : 'cashier screens'}…</p>`,
    '',
  ].join('\n');
}

export class ScreensPairing {
  readonly #layout: ReturnType<typeof screensPairingLayout>;
  readonly #pageKey: Buffer;
  readonly #now: () => number;
  /** Unused tickets by their SHA-256, with when each stops opening the door and for whom. */
  readonly #tickets = new Map<string, { until: number; role: ScreenRole }>();
  readonly #launches = new Map<ScreenRole, { ticketHash: string; screensOrigin: string }>();
  #refresh: NodeJS.Timeout | undefined;

  private constructor(dataDir: string, now: () => number) {
    this.#layout = screensPairingLayout(dataDir);
    this.#now = now;
    mkdirSync(this.#layout.dir, { recursive: true, mode: 0o700 });
    chmodSync(this.#layout.dir, 0o700);
    rmSync(this.#layout.formerToken, { force: true });
    this.#pageKey = loadPageKey(this.#layout.pageKey);
  }

  /** The data dir's pairing; call once the data dir is this engine's. */
  static open(dataDir: string, now: () => number = Date.now): ScreensPairing {
    return new ScreensPairing(dataDir, now);
  }

  get launchPagePath(): string {
    return this.#layout.launchPage;
  }

  get customerLaunchPagePath(): string {
    return this.#layout.customerLaunchPage;
  }

  /** A new ticket for one page of `role`; whoever the engine's own process hands it to. */
  issueTicket(role: ScreenRole = 'cashier'): string {
    this.#forgetExpired();
    while (this.#tickets.size >= TICKETS_KEPT) {
      const oldest = this.#tickets.keys().next().value;
      if (oldest === undefined) break;
      this.#tickets.delete(oldest);
    }
    const ticket = randomBytes(32).toString('base64url');
    this.#tickets.set(digest(ticket).toString('hex'), { until: this.#now() + TICKET_LIFETIME_MS, role });
    return ticket;
  }

  /** The address a browser opens to become a screen of `role` with this ticket. */
  static pairingAddress(screensOrigin: string, ticket: string, role: ScreenRole = 'cashier'): string {
    return `${screensOrigin}${SCREEN_PATHS[role]}#${BRIDGE_PAIRING_PARAMETER}=${ticket}`;
  }

  /**
   * Writes the launch pages (the cashier's screens' and the customer's screen's) with a fresh ticket
   * each for the screens at `screensOrigin`, and keeps them fresh: each is written again once its
   * ticket is used or runs out.
   */
  keepLaunchPage(screensOrigin: string): void {
    for (const role of ['cashier', 'customer'] as const) this.#writeLaunchPage(screensOrigin, role);
    this.#refresh ??= setInterval(() => this.#renewLaunchPages(), LAUNCH_PAGE_CHECK_MS).unref();
  }

  /**
   * Writes a launch page again once its ticket is spent or has lived half its life: checked every
   * quarter of a life, the page on disk always holds a ticket with at least a quarter of its left.
   */
  #renewLaunchPages(): void {
    this.#forgetExpired();
    const now = this.#now();
    for (const [role, launch] of this.#launches) {
      const ticket = this.#tickets.get(launch.ticketHash);
      if (!ticket || ticket.until - now <= TICKET_LIFETIME_MS / 2)
        this.#writeLaunchPage(launch.screensOrigin, role);
    }
  }

  /** A new page's credential for an unused, unexpired ticket, which is then spent; else undefined. */
  redeem(ticket: string): string | undefined {
    this.#forgetExpired();
    const hash = digest(ticket).toString('hex');
    const issued = this.#tickets.get(hash);
    if (!issued) return undefined;
    this.#tickets.delete(hash);
    const launch = this.#launches.get(issued.role);
    if (launch?.ticketHash === hash) this.#writeLaunchPage(launch.screensOrigin, issued.role);
    const pageId = randomBytes(16).toString('base64url');
    const mac = this.#mac(pageId, issued.role).toString('base64url');
    return issued.role === 'customer' ? `customer.${pageId}.${mac}` : `${pageId}.${mac}`;
  }

  /** The page a credential was made for, and its role; undefined when this data dir did not make it. */
  pageOf(credential: string): PairedPage | undefined {
    const match = CREDENTIAL_PATTERN.exec(credential);
    if (!match) return undefined;
    const [, customer, pageId = '', mac = ''] = match;
    const role: ScreenRole = customer === undefined ? 'cashier' : 'customer';
    const given = Buffer.from(mac, 'base64url');
    const expected = this.#mac(pageId, role);
    return given.length === expected.length && timingSafeEqual(given, expected)
      ? { pageId, role }
      : undefined;
  }

  /** Stops refreshing the launch pages and removes them, so no ticket of a stopped engine lies around. */
  close(): void {
    clearInterval(this.#refresh);
    this.#refresh = undefined;
    this.#tickets.clear();
    for (const role of this.#launches.keys()) rmSync(this.#launchPageOf(role), { force: true });
    this.#launches.clear();
  }

  #mac(pageId: string, role: ScreenRole): Buffer {
    // The cashier's words are those of every credential made before roles, which stay good.
    const words = role === 'customer' ? `tender customer screen ${pageId}` : `tender screens page ${pageId}`;
    return createHmac('sha256', this.#pageKey).update(words).digest();
  }

  #launchPageOf(role: ScreenRole): string {
    return role === 'customer' ? this.#layout.customerLaunchPage : this.#layout.launchPage;
  }

  #writeLaunchPage(screensOrigin: string, role: ScreenRole): void {
    const ticket = this.issueTicket(role);
    this.#launches.set(role, { ticketHash: digest(ticket).toString('hex'), screensOrigin });
    writeFileAtomically(
      this.#launchPageOf(role),
      launchPage(ScreensPairing.pairingAddress(screensOrigin, ticket, role), role),
      0o600,
    );
  }

  #forgetExpired(): void {
    const now = this.#now();
    for (const [hash, { until }] of this.#tickets) if (until <= now) this.#tickets.delete(hash);
  }
}
