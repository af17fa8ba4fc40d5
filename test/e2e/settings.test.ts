/**
 * Settings in Debian's Chromium against a real engine: an API key created here and used by another
 * program, revoked again; tips and tabs; the card reader with its key; the connection details; a
 * manager's approval of a cashier's change; the payment processor and its connection test; and the
 * audit log of it all. Screenshots are saved as test-results/settings-*.png and every state is
 * checked with axe.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TenderClient, TenderApiError } from '../../shared/api/client';
import { certificateFingerprint } from '../../electron/gateway/crypto/certificate';
import { readStoreServerFile } from '../../electron/gateway/store-server-file';
import { startPostgresServer } from '../support/postgres-server';
import { useUpstreamGateway } from '../support/upstream-gateway';
import { OWNER, startCounter, type Counter, type CounterPage } from './counter-page';

let counter: Counter;

beforeAll(async () => {
  counter = await startCounter();
});
afterEach(() => counter?.closePages());
afterAll(() => counter?.close());

async function settings(section: string): Promise<CounterPage> {
  const cashier = await counter.open('settings');
  await cashier.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: counter.screens.origin,
  });
  await cashier.goTo('Settings');
  await cashier.page
    .getByRole('navigation', { name: 'Settings' })
    .getByRole('button', { name: section })
    .click();
  await cashier.page.getByRole('heading', { name: section, level: 2 }).waitFor();
  return cashier;
}

/** A client for another program on this computer, with the key the settings screen showed. */
function anotherProgram(key: string): TenderClient {
  return new TenderClient({
    baseUrl: counter.screens.running.gateway.url,
    apiKey: key,
    fetch: async (url, init) => {
      const { pathname, search } = new URL(url);
      const response = await counter.screens.send(pathname + search, init);
      return { status: response.status, text: async () => response.body };
    },
  });
}

describe('API keys', () => {
  it('are created with a name and permissions, shown once to copy, and work for another program', async () => {
    const cashier = await settings('API keys');
    const { page } = cashier;
    await page.getByTestId('keys-table').getByText('These screens').waitFor();
    await cashier.check('01-api-keys');

    await page.getByLabel('Name').fill('Kitchen display');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByText('Tick at least one permission').waitFor();
    await page.getByRole('checkbox', { name: /Read transactions/ }).check();
    await page.getByRole('button', { name: 'Create key' }).click();

    const dialog = page.getByTestId('created-key');
    await dialog.waitFor();
    const key = await dialog.getByTestId('created-key-value').inputValue();
    expect(key).toMatch(/^tender_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    await dialog.getByRole('button', { name: 'Copy' }).click();
    await dialog.getByRole('button', { name: 'Copied', exact: true }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await cashier.check('02-key-created');
    await dialog.getByRole('button', { name: 'I have copied it' }).click();

    // Another program reads with it, and is refused what the key does not allow.
    const kitchen = anotherProgram(key);
    await counter.screens.client.createTransaction({
      type: 'SALE',
      amount: '4.50',
      card: '4111111111111111',
      exp_date: '1230',
    });
    expect((await kitchen.listTransactions({ page_size: 1 }))[0]).toMatchObject({ amount: '4.50' });
    const refused = await kitchen
      .createTransaction({ type: 'SALE', amount: '1.00', card: '4111111111111111', exp_date: '1230' })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TenderApiError);
    expect((refused as TenderApiError).status).toBe(403);

    // Listed with its permissions and last use, never the key itself.
    const id = key.split('_')[1] ?? '';
    await page.reload();
    await cashier.goTo('Settings');
    await page
      .getByRole('navigation', { name: 'Settings' })
      .getByRole('button', { name: 'API keys' })
      .click();
    const row = page.getByTestId(`key-${id}`);
    await row.waitFor();
    expect(await row.textContent()).toContain('Kitchen display');
    expect(await row.textContent()).toContain('Read transactions');
    expect(await row.textContent()).not.toContain('Never');
    expect(await page.content()).not.toContain(key);

    await row.getByRole('button', { name: 'Revoke Kitchen display' }).click();
    const confirm = page.getByTestId('confirm-dialog');
    await confirm.waitFor();
    await cashier.check('03-revoke-confirm');
    await confirm.getByRole('button', { name: 'Revoke the key' }).click();
    await row.waitFor({ state: 'detached' });
    const afterRevoke = await kitchen.listTransactions().catch((error: unknown) => error);
    expect((afterRevoke as TenderApiError).status).toBe(401);
    await page.getByText(/^Revoked keys/).click();
    await page
      .getByRole('cell', { name: 'Kitchen display' })
      .or(page.getByRole('rowheader', { name: 'Kitchen display' }))
      .waitFor();
  });

  it('never offer to revoke the key these screens use', async () => {
    const cashier = await settings('API keys');
    const own = cashier.page.getByTestId('keys-table').getByRole('row', { name: /Tender browser screens/ });
    await own.waitFor();
    expect(await own.getByRole('button', { name: /Revoke/ }).count()).toBe(0);
  });
});

describe('tips and tabs', () => {
  it('turn tips on with other suggested percentages, which the tab screen then offers', async () => {
    const cashier = await settings('Tips & tabs');
    const { page } = cashier;
    const tips = page.getByRole('switch', { name: 'Tips on captured tabs' });
    expect(await tips.getAttribute('aria-checked')).toBe('false');
    await tips.click();
    await page.getByLabel('Suggested tip 1').fill('18');
    await page.getByLabel('Suggested tip 2').fill('20');
    await page.getByLabel('Suggested tip 3').fill('22');
    await page.getByLabel('Tabs can be captured for').fill('5');
    expect(await page.getByLabel('Confirm tips above').inputValue()).toBe('30');
    await page.getByLabel('Confirm tips above').fill('45');
    await page.getByLabel('Duplicate check').fill('3');
    await cashier.check('04-tips');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved').waitFor();
    expect(await counter.reader.bridge.invoke('settings:get')).toMatchObject({
      tipsEnabled: true,
      tipPercentages: [18, 20, 22],
      authExpiryDays: 5,
      tipWarnPercent: 45,
      duplicateWindowMinutes: 3,
    });
    expect(counter.screens.running.gateway.engine.settings.get('duplicate_window_minutes')).toBe(3);

    const tab = await counter.screens.client.createTransaction({
      type: 'AUTH',
      amount: '10.00',
      card: '4111111111111111',
      exp_date: '1230',
    });
    await cashier.goTo('Tabs');
    await page.getByTestId(`tab-${tab.id}`).getByRole('button').click();
    const choices = page.getByRole('group', { name: 'Suggested tips' }).getByRole('button');
    expect(await choices.allTextContents()).toEqual(['18%$1.80', '20%$2.00', '22%$2.20', 'No tip$0.00']);
    await counter.screens.client.createTransaction({ type: 'VOID', id: tab.id });
    await counter.reader.bridge.invoke('settings:update', {
      tipsEnabled: false,
      tipPercentages: [15, 18, 20],
      authExpiryDays: 7,
      tipWarnPercent: 30,
      duplicateWindowMinutes: 0,
    });
  });

  it('refuse percentages that repeat, on the form', async () => {
    const cashier = await settings('Tips & tabs');
    await cashier.page.getByLabel('Suggested tip 2').fill('15');
    await cashier.page.getByRole('button', { name: 'Save' }).click();
    await cashier.page.getByText('Each percentage once.').waitFor();
  });
});

describe('the card reader', () => {
  it('shows its status, the udev rule on Linux, and the swipe key marked test-only while it is the ANSI test key', async () => {
    const cashier = await settings('Card reader');
    const { page } = cashier;
    expect(await page.getByTestId('reader-status-line').textContent()).toContain('is ready');
    if (process.platform === 'linux') {
      expect(await page.getByTestId('udev-hint').textContent()).toContain(
        'sudo cp resources/udev/99-tender-magtek.rules /etc/udev/rules.d/',
      );
    }
    await page.getByTestId('bdk-test-only').waitFor();
    expect(await page.getByTestId('bdk-kcv').textContent()).toBe('08D7B4');
    await page.getByText('This is the public ANSI test key.').waitFor();
    await cashier.check('05-card-reader');

    const bdk = 'FEDCBA98765432100123456789ABCDEF';
    await page.getByLabel('New BDK').fill(bdk);
    await page.getByRole('button', { name: 'Change the key' }).click();
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Change the key' }).click();
    await page.getByText('Your key', { exact: true }).waitFor();
    expect(await page.getByTestId('bdk-kcv').textContent()).not.toBe('08D7B4');
    expect(await page.getByLabel('New BDK').inputValue()).toBe('');
    expect(await page.content()).not.toContain(bdk);
    expect(counter.screens.running.gateway.engine.settings.get('swipe_bdk')).toBe(bdk);
    await cashier.check('06-card-reader-own-key');
    await counter.reader.bridge.invoke('settings:set-swipe-key', { bdk: '0123456789ABCDEFFEDCBA9876543210' });
  });
});

describe('the connection', () => {
  it('gives integrators the loopback address and the certificate’s fingerprint', async () => {
    const cashier = await settings('Connection');
    const { page } = cashier;
    const { gateway } = counter.screens.running;
    expect(await page.getByTestId('engine-url').textContent()).toBe(gateway.url);
    expect(await page.getByTestId('certificate-fingerprint').textContent()).toBe(
      certificateFingerprint(gateway.certificatePem),
    );
    expect(await page.getByTestId('certificate-file').textContent()).toBe(
      `${counter.screens.dataDir}/tls/cert.pem`,
    );
    await page.getByRole('button', { name: 'Copy the address' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(gateway.url);
    await cashier.check('07-connection');
  });
});

describe('manager approval of settings', () => {
  it("a cashier's settings change waits for a manager's PIN, and cancelling it changes nothing", async () => {
    const { engine } = counter.screens.running.gateway;
    if (!engine.staff.list().some((member) => member.name === 'Cole')) {
      await engine.staff.create({ name: 'Cole', role: 'cashier', pin: '1470' }, 'test');
    }
    await counter.reader.bridge.invoke('staff:sign-in', { pin: '1470' });
    try {
      const cashier = await settings('Tips & tabs');
      const { page } = cashier;
      await page.getByRole('switch', { name: 'Tips on captured tabs' }).click();
      await page.getByRole('button', { name: 'Save' }).click();
      const pin = page.getByRole('dialog', { name: 'Manager PIN' });
      await pin.waitFor();
      await cashier.check('10-pin-asked');
      await pin.getByRole('button', { name: 'Cancel' }).click();
      await pin.waitFor({ state: 'detached' });
      expect((await counter.reader.bridge.invoke('settings:get')).tipsEnabled).toBe(false);
      await page.getByRole('button', { name: 'Save' }).click();
      await pin.getByLabel('PIN', { exact: true }).fill('1470');
      await pin.getByRole('button', { name: 'Confirm' }).click();
      await pin.getByText('Cole is a cashier. A manager must enter their PIN.').waitFor();
      await pin.getByLabel('PIN', { exact: true }).fill(OWNER.pin);
      await pin.getByRole('button', { name: 'Confirm' }).click();
      await page.getByText('Saved').waitFor();
      expect((await counter.reader.bridge.invoke('settings:get')).tipsEnabled).toBe(true);
    } finally {
      await counter.reader.bridge.invoke('staff:sign-in', { pin: OWNER.pin });
      await counter.reader.bridge.invoke('settings:update', { tipsEnabled: false });
    }
  });
});

describe('the audit log', () => {
  it('shows who changed keys and settings, newest first', async () => {
    const cashier = await settings('Audit log');
    const { page } = cashier;
    const table = page.getByTestId('audit-table');
    await table.locator('tbody tr').first().waitFor();
    const first = await table.locator('tbody tr').first().textContent();
    // Sign-ins and wrong PINs are in the log too: what these tests did spans two pages.
    let text = (await table.textContent()) ?? '';
    await page.getByRole('button', { name: 'Older' }).click();
    await expect.poll(() => table.locator('tbody tr').first().textContent()).not.toBe(first);
    text += (await table.textContent()) ?? '';
    expect(text).toContain('cashier app');
    expect(text).toContain('Created a key');
    expect(text).toContain('Revoked a key');
    expect(text).toContain('Wrong PIN');
    expect(text).toContain('Signed in');
    expect(text).toContain('swipe_bdk');
    expect(text).not.toContain('FEDCBA98765432100123456789ABCDEF');
    expect(first).toContain('tips_enabled');
    await cashier.check('11-audit-log');
  });
});

describe('the store server', () => {
  it('is saved for the next start once it answers, and a server that does not is refused', async () => {
    const server = await startPostgresServer();
    try {
      const cashier = await settings('Store server');
      const { page } = cashier;
      expect(await page.getByTestId('store-server-now').textContent()).toBe(
        'This counter uses its own ledger, on this computer.',
      );
      await cashier.check('20-store-server');

      await page
        .getByRole('textbox', { name: 'Store server' })
        .fill('postgresql://tender@127.0.0.1:1/tender');
      await page.getByRole('textbox', { name: 'Counter name' }).fill('bar');
      await page.getByRole('button', { name: 'Save for the next start' }).click();
      await page.getByText(/could not reach the store server.*Nothing was saved/).waitFor();
      expect(readStoreServerFile(counter.screens.dataDir)).toBeUndefined();
      cashier.problems.length = 0;

      const url = (await server.createDatabase()).replace('://tender@', '://tender:s3cret@');
      await page.getByRole('textbox', { name: 'Store server' }).fill(url);
      await page.getByRole('button', { name: 'Save for the next start' }).click();
      await page.getByText('Saved. Restart Tender to use it.').waitFor();
      const next = await page.getByTestId('store-server-next').textContent();
      expect(next).toContain('as bar');
      expect(next).not.toContain('s3cret');
      expect(readStoreServerFile(counter.screens.dataDir)).toEqual({ url, lane: 'bar' });
      await cashier.check('21-store-server-saved');

      await page.getByRole('button', { name: 'Use this counter’s own ledger' }).click();
      await expect
        .poll(() => page.getByTestId('store-server-next').textContent())
        .toBe('The setting says: its own ledger, on this computer.');
      expect(readStoreServerFile(counter.screens.dataDir)).toBeUndefined();
    } finally {
      await server.close();
    }
  });
});

describe('the payment processor', () => {
  const upstream = useUpstreamGateway();
  afterEach(async () => {
    await upstream().proxy.line('up');
    await counter.screens.running.gateway.engine.settings.change([
      ['processor', 'simulator'],
      ['upstream_url', ''],
      ['upstream_api_key', ''],
      ['upstream_ca_file', ''],
    ]);
  });

  it('with the gateway chosen, the card reader section offers no swipe key and says why, until the simulator is chosen again', async () => {
    const cashier = await settings('Card reader');
    const { page } = cashier;
    await page.getByLabel('New BDK').waitFor();
    await counter.reader.bridge.invoke('processor:update', {
      upstreamUrl: upstream().url,
      apiKey: upstream().key,
      caFile: upstream().caFile,
      processor: 'upstream',
    });
    await expect
      .poll(() => page.getByTestId('bdk-not-held').textContent())
      .toMatch(/None is kept while the payment processor is the merchant.s gateway/);
    expect(await page.getByLabel('New BDK').count()).toBe(0);
    expect(await page.getByTestId('bdk-kcv').count()).toBe(0);
    await cashier.check('07-card-reader-gateway');
    await counter.reader.bridge.invoke('processor:update', { processor: 'simulator' });
    await page.getByLabel('New BDK').waitFor();
    expect(await page.getByTestId('bdk-not-held').count()).toBe(0);
  });

  it(
    'a manager tests the gateway in words (key refused, certificate not trusted, unreachable, fine) and chooses it; its key is never shown',
    { timeout: 90_000 },
    async () => {
      const cashier = await settings('Payment processor');
      const { page } = cashier;
      const result = page.getByTestId('processor-test-result');
      const test = async (words: RegExp) => {
        await page.getByRole('button', { name: 'Test connection' }).click();
        await expect.poll(() => result.textContent()).toMatch(words);
      };
      await cashier.check('30-processor');
      for (const size of [
        { width: 1024, height: 768 },
        { width: 800, height: 600 },
      ]) {
        await page.setViewportSize(size);
        await page.screenshot({
          path: `test-results/settings-30-processor-${size.width}.png`,
          fullPage: true,
        });
      }
      await page.setViewportSize({ width: 1280, height: 800 });

      await page.getByRole('textbox', { name: 'Gateway address' }).fill(upstream().url);
      await page.getByLabel('API key').fill('tender_0000000000000000_not-the-key');
      await page.getByRole('textbox', { name: 'CA file' }).fill(upstream().caFile);
      await test(/^Key refused \(401\)/);
      await cashier.check('31-processor-key-refused');

      await page.getByLabel('API key').fill(upstream().key);
      await page.getByRole('textbox', { name: 'CA file' }).fill('');
      await test(/^Certificate not trusted: the certificate 127\.0\.0\.1:\d+ presented is not trusted/);

      await page.getByRole('textbox', { name: 'CA file' }).fill(upstream().caFile);
      await upstream().proxy.line('refuse');
      await test(/^Unreachable: 127\.0\.0\.1:\d+ refused the connection/);
      await upstream().proxy.line('up');
      await test(/^Connected: 127\.0\.0\.1:\d+ answered over a verified connection/);
      await cashier.check('32-processor-connected');
      cashier.problems.length = 0;

      await page.getByRole('combobox', { name: 'Payments approved by' }).selectOption('upstream');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
      await expect
        .poll(() => page.getByTestId('upstream-key-state').textContent())
        .toMatch(/^A key is kept; it is never shown/);
      expect(await page.getByLabel('API key').inputValue()).toBe('');
      const { settings: engineSettings } = counter.screens.running.gateway.engine;
      expect(engineSettings.get('processor')).toBe('upstream');
      expect(engineSettings.get('upstream_api_key')).toBe(upstream().key);
      expect(engineSettings.get('upstream_url')).toBe(upstream().url);

      await page.reload();
      await cashier.goTo('Settings');
      await page
        .getByRole('navigation', { name: 'Settings' })
        .getByRole('button', { name: 'Payment processor' })
        .click();
      await page.getByTestId('upstream-key-state').waitFor();
      expect(await page.content()).not.toContain(upstream().key);
      // The kept key is tested against the kept address.
      await test(/^Connected: /);
      await cashier.check('33-processor-saved');
    },
  );
});
