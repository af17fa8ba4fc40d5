/**
 * The cashier screens in Debian's Chromium, served by a real engine on loopback: the browser,
 * the page object the tests drive, screenshots and the accessibility check.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Browser, BrowserContext, Page, Route } from 'playwright';
import { expect } from 'vitest';
import {
  launchChromium,
  requireChromium,
  startTestScreens,
  type NodeBridge,
  type TestScreens,
} from '../support/screens';

export const ROOT = join(import.meta.dirname, '..', '..');
const require = createRequire(join(ROOT, 'package.json'));
export const RESULTS_DIR = join(ROOT, 'test-results');
const AXE_SOURCE = readFileSync(
  join(dirname(require.resolve('axe-core/package.json')), 'axe.min.js'),
  'utf8',
);

/** The engine's clock: the real time, moved on by what a test skips, as the screen's clock can be. */
export class EngineClock {
  private offset = 0;
  readonly now = (): number => Date.now() + this.offset;
  skip(ms: number): void {
    this.offset += ms;
  }
  reset(): void {
    this.offset = 0;
  }
}

export interface Counter {
  screens: TestScreens;
  /** What the engine reads as now; a test that moves a page's clock moves this one with it. */
  engineClock: EngineClock;
  browser: Browser;
  /** A second page on the bridge, standing where the cashier's reader would be. */
  reader: NodeBridge;
  /**
   * A fresh browser page on the screens, waiting for the reader to be ready. Screenshots are named
   * after `prefix` (cashier by default).
   */
  open(prefix?: string): Promise<CounterPage>;
  /** Closes a browser context of the test's own (a customer's screen, say) with the counter's pages. */
  adopt(context: BrowserContext): void;
  /**
   * Closes the pages opened so far. Every open page is a cashier screen on the same bridge: one left
   * waiting for a card would take the next test's swipe.
   */
  closePages(): Promise<void>;
  close(): Promise<void>;
}

/** How long a step may wait before its state counts as never coming. */
const FAILURE_BOUND_MS = 90_000;

/** The manager signed in at every counter the tests start. */
export const OWNER = { name: 'Olga', pin: '2580' } as const;

/** Builds the app into a folder of its own, which the caller removes. */
export function buildApp(): string {
  const buildDir = mkdtempSync(join(tmpdir(), 'tender-e2e-build-'));
  execFileSync(
    process.execPath,
    [join(ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'],
    {
      cwd: ROOT,
      env: { ...process.env, TENDER_BUILD_DIR: buildDir },
      stdio: 'pipe',
    },
  );
  return buildDir;
}

/**
 * Time passes for the engine and on a cashier's screen alike (the page's clock is fixed that far
 * ahead), and the screen starts again on it: a tab grows old, a hold expires.
 */
export async function afterTime(counter: Counter, cashier: CounterPage, ms: number): Promise<void> {
  counter.engineClock.skip(ms);
  await cashier.page.clock.setFixedTime(Date.now() + ms);
  await cashier.page.reload();
  await cashier.readerBadge('Card reader ready').waitFor();
}

/** Opens a tab of `amount` on the test Mastercard through the engine's API; its id, once approved. */
export async function openTab(counter: Counter, amount: string): Promise<string> {
  const auth = await counter.screens.client.createTransaction({
    type: 'AUTH',
    amount,
    card: '5454545454545454',
    exp_date: '1230',
  });
  expect(auth.result).toBe('Approved');
  return auth.id ?? '';
}

/** Builds the app and serves its screens with the simulated reader. */
export async function startCounter(): Promise<Counter> {
  requireChromium();
  const buildDir = buildApp();
  const engineClock = new EngineClock();
  const screens = await startTestScreens({
    rendererDir: join(buildDir, 'renderer'),
    engine: { now: engineClock.now },
  });
  const browser = await launchChromium([screens.running.gateway.certificatePem]);
  const reader = await screens.connectBridge();
  // A counter opened for the day: the owner, a manager, is signed in, and it locks only on demand.
  // The tests of the lock, of sign-in and of approvals sign other people in.
  const { engine } = screens.running.gateway;
  await engine.staff.create({ name: OWNER.name, role: 'manager', pin: OWNER.pin }, 'test');
  await engine.settings.setFromText('lock_after_minutes', '0');
  await reader.bridge.invoke('staff:sign-in', { pin: OWNER.pin });
  const contexts: BrowserContext[] = [];
  mkdirSync(RESULTS_DIR, { recursive: true });
  return {
    screens,
    engineClock,
    browser,
    reader,
    async open(prefix = 'cashier') {
      const context = await browser.newContext({
        viewport: { width: 1280, height: 800 },
        deviceScaleFactor: 1,
      });
      contexts.push(context);
      const page = await context.newPage();
      const counter = new CounterPage(page, prefix);
      await page.goto(screens.running.pairingAddress());
      await counter.readerBadge('Card reader ready').waitFor();
      return counter;
    },
    adopt(context) {
      contexts.push(context);
    },
    async closePages() {
      await Promise.all(contexts.splice(0).map((context) => context.close()));
    },
    async close() {
      await Promise.all(contexts.splice(0).map((context) => context.close()));
      await browser.close();
      await screens.close();
      rmSync(buildDir, { recursive: true, force: true });
    },
  };
}

/** The message of the engine's answer to a request that failed inside it. */
export const ENGINE_FAILURE_MESSAGE =
  'The engine failed to complete the request; nothing was recorded. Try again.';

/** That answer, for a route to fulfil in the engine's place: a 500 in the engine's error format. */
export const ENGINE_FAILURE = {
  status: 500,
  contentType: 'application/json',
  body: JSON.stringify({ status: '500', error: 'internal_error', message: ENGINE_FAILURE_MESSAGE }),
} as const;

export interface HeldRequest {
  /** Resolves when the screen has sent its request (the first one, while held). */
  sent: Promise<void>;
  /** How many sale requests the screen sent since the hold began. */
  count(): number;
  release(): void;
}

export class CounterPage {
  /** Console errors and uncaught exceptions, including any content security policy refusal. */
  readonly problems: string[] = [];
  /** Console errors a step expects (the socket refused while the engine is away), not problems. */
  readonly #allowed = new Set<RegExp>();
  #swipesReceived = 0;
  #clockInstalled = false;
  #clockStopped = false;
  readonly #swipeWaiters = new Set<() => void>();

  constructor(
    readonly page: Page,
    /** Screenshots are saved as test-results/<prefix>-<name>.png. */
    private readonly screenshotPrefix = 'cashier',
  ) {
    // A step waits for what it needs; on a busy machine that can take far longer than Playwright's
    // 30 s default, which is only a bound on a state that never comes (see .config/vitest.config.ts).
    page.setDefaultTimeout(FAILURE_BOUND_MS);
    page.on('console', (message) => {
      const text = message.text();
      if (message.type() === 'error' && ![...this.#allowed].some((pattern) => pattern.test(text)))
        this.problems.push(text);
    });
    page.on('pageerror', (error) => this.problems.push(error.message));
    page.on('websocket', (socket) =>
      socket.on('framereceived', ({ payload }) => {
        if (!String(payload).includes('"event":"reader:swipe"')) return;
        this.#swipesReceived += 1;
        for (const wake of this.#swipeWaiters) wake();
      }),
    );
  }

  /**
   * Console errors matching `pattern` are expected, not problems, until the returned function is
   * called: the screens keep retrying a socket the test has taken away, however long a check takes.
   */
  allowProblems(pattern: RegExp): () => void {
    this.#allowed.add(pattern);
    return () => this.#allowed.delete(pattern);
  }

  /**
   * Resolves once the page has received this many swipe events over its bridge socket and has run
   * its handlers for them (one animation frame later).
   */
  async swipesReceived(count: number): Promise<void> {
    await new Promise<void>((resolve) => {
      const check = () => {
        if (this.#swipesReceived < count) return;
        this.#swipeWaiters.delete(check);
        resolve();
      };
      this.#swipeWaiters.add(check);
      check();
    });
    await this.page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
  }

  readerBadge(text: string) {
    return this.page.locator('.reader-badge', { hasText: text });
  }

  get amount() {
    return this.page.getByTestId('sale-amount');
  }

  /** Moves to another screen through the menu in the top bar, as a cashier would. */
  async goTo(
    screen: 'Sale' | 'Tabs' | 'Refund & void' | 'History' | 'End of day' | 'Settings',
  ): Promise<void> {
    await this.page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: screen }).click();
    await this.page
      .getByRole('navigation', { name: 'Screens' })
      .getByRole('link', { name: screen })
      .and(this.page.locator('[aria-current="page"]'))
      .waitFor();
  }

  /** The screen in view (the others stay mounted, hidden). */
  get screen() {
    return this.page.locator('.screen-slot:not([hidden])');
  }

  get result() {
    return this.page.getByTestId('sale-result');
  }

  /** Taps the keypad, as a finger would. */
  async tapAmount(digits: string): Promise<void> {
    for (const digit of digits) {
      await this.page
        .getByRole('group', { name: 'Amount keys' })
        .getByRole('button', { name: digit, exact: true })
        .click();
    }
  }

  async chargeAndKeyIn(): Promise<void> {
    await this.page.getByRole('button', { name: /^Charge \$/ }).click();
    await this.page.getByTestId('waiting-for-swipe').waitFor();
    await this.page.getByRole('button', { name: 'Key in the card' }).click();
  }

  async fillCard(card: { number: string; expiry: string; csc?: string; zip?: string }): Promise<void> {
    await this.page.getByLabel('Card number').fill(card.number);
    await this.page.getByLabel('Expiry (MMYY)').fill(card.expiry);
    if (card.csc) await this.page.getByLabel(/Security code/).fill(card.csc);
    if (card.zip) await this.page.getByLabel(/Billing zip/).fill(card.zip);
  }

  async submitCard(): Promise<void> {
    await this.page
      .locator('form.keyed-form')
      .getByRole('button', { name: /^Charge \$/ })
      .click();
  }

  /**
   * Rings a sale of `digits` tipped at the counter: Charge, the suggested tip `tip` chosen, then the
   * test Visa keyed in and sent. What the screen answers is for the test to wait for.
   */
  async ringTippedSale(digits: string, tip = '20%'): Promise<void> {
    await this.tapAmount(digits);
    await this.page.getByRole('button', { name: /^Charge \$/ }).click();
    await this.page.getByTestId('counter-tip').waitFor();
    await this.page
      .getByRole('group', { name: 'Suggested tips' })
      .getByRole('button', { name: new RegExp(`^${tip}`) })
      .click();
    await this.page.getByTestId('waiting-for-swipe').waitFor();
    await this.page.getByRole('button', { name: 'Key in the card' }).click();
    await this.fillCard({ number: '4111111111111111', expiry: '1230' });
    await this.submitCard();
  }

  /**
   * Stops the screen's clock until `stepSettled`, so that the first moment of the next step lasts
   * until then: taps and keys sent meanwhile land inside the step's pause however slow the machine
   * is. Only timers and time (Date, performance.now) stop; the screen still renders and talks to the
   * engine.
   */
  async stopClock(): Promise<void> {
    if (!this.#clockInstalled) await this.page.clock.install();
    this.#clockInstalled = true;
    await this.page.clock.pauseAt((await this.page.evaluate(() => Date.now())) + 1);
    this.#clockStopped = true;
  }

  /**
   * Resolves once the step on screen takes taps and Enter: for a moment after an answer or the wait
   * for the card appears, its buttons are aria-disabled and do nothing. A clock `stopClock` stopped
   * runs again first.
   */
  async stepSettled(): Promise<void> {
    if (this.#clockStopped) await this.page.clock.resume();
    this.#clockStopped = false;
    await this.page.locator('button[aria-disabled="true"]').first().waitFor({ state: 'detached' });
  }

  /** Waits for the result screen and returns its outcome kind. */
  async outcome(): Promise<string | null> {
    await this.result.waitFor();
    return this.result.getAttribute('data-outcome');
  }

  /** The payment ended approved; a failure says what the screen said instead. */
  async expectApproved(): Promise<void> {
    const outcome = await this.outcome();
    expect(outcome, `the screen said: ${await this.result.textContent()}`).toBe('approved');
  }

  /**
   * Holds the screen's sale requests at the network until released, to look at the screen while a
   * charge is in flight and to count what it sends meanwhile. The route stays for the page's life:
   * removing it with a request still held would hand that request back to Playwright.
   */
  async holdSaleRequests(): Promise<HeldRequest> {
    let count = 0;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let sent!: () => void;
    const sentPromise = new Promise<void>((resolve) => (sent = resolve));
    await this.page.route('**/rest/v1/transactions', async (route: Route) => {
      if (route.request().method() === 'POST') {
        count += 1;
        sent();
        await released;
      }
      await route.continue();
    });
    return { sent: sentPromise, count: () => count, release };
  }

  /** Saves a screenshot under test-results/ and checks the screen with axe. */
  async check(name: string): Promise<void> {
    await this.page.screenshot({
      path: join(RESULTS_DIR, `${this.screenshotPrefix}-${name}.png`),
      animations: 'disabled',
    });
    await expectAccessible(this.page, name);
    expect(this.problems, `console errors on ${name}`).toEqual([]);
  }
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core's source is evaluated through the DevTools protocol, which the page's policy does not govern. */
export async function expectAccessible(page: Page, state: string): Promise<void> {
  await page.evaluate(AXE_SOURCE);
  const { violations, passed } = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run(): Promise<{ violations: AxeViolation[]; passes: unknown[] }> } }
    ).axe;
    const results = await axe.run();
    return { violations: results.violations, passed: results.passes.length };
  });
  // A run that checked nothing would pass too; axe checks dozens of rules on any of these screens.
  expect(passed, `axe rules passed on ${state}`).toBeGreaterThan(10);
  const serious = violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
  expect(serious, `serious accessibility violations on ${state}`).toEqual([]);
}
