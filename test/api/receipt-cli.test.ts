/** `npm run gateway -- receipt`: a transaction's receipt on standard output, or sent to a printer. */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../../electron/gateway/open-store';
import { decodeEscPos } from '../support/escpos-decoder';
import { refusedPort, startFakePrinter } from '../support/fake-printer';
import { createTestDatabase, storeArguments, type TestDatabase } from '../support/gateway';
import { sampleSignature } from '../support/signatures';

const ROOT = join(import.meta.dirname, '..', '..');
const CLI = ['--import', 'tsx', join(ROOT, 'electron', 'cli.ts')];

let dataDir: string;
/** The store server's database when the suite runs on PostgreSQL. */
let store: TestDatabase | undefined;
let saleId: string;
let tabId: string;
/** A sale the customer signed for on their screen. */
let signedId: string;

function run(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [...CLI, ...args, '--data-dir', dataDir, ...storeArguments({ store })],
      {
        cwd: ROOT,
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'tender-receipt-cli-'));
  store = await createTestDatabase();
  const engine = await openEngine(dataDir, store ? { store } : {});
  try {
    const sale = await engine.transactions.submit(
      { type: 'SALE', amount: '12.34', card: '5454545454545454', exp_date: '1230', order_number: 'A77' },
      { apiKeyId: null },
    );
    saleId = sale.id ?? '';
    const tab = await engine.transactions.submit(
      { type: 'AUTH', amount: '20.00', card: '4111111111111111', exp_date: '1230', server_id: '04' },
      { apiKeyId: null },
    );
    tabId = tab.id ?? '';
    const signed = await engine.transactions.submit(
      { type: 'SALE', amount: '45.00', card: '4111111111111111', exp_date: '1230' },
      { apiKeyId: null },
    );
    signedId = signed.id ?? '';
    await engine.signatures.keep(Number(signedId), sampleSignature());
  } finally {
    await engine.close();
  }
  for (const [name, value] of [
    ['merchant_name', 'Corner Cafe'],
    ['merchant_address', '1 Main St|Springfield'],
    ['receipt_footer', 'See you soon'],
  ]) {
    expect((await run('settings', 'set', name ?? '', value ?? '')).status).toBe(0);
  }
});
afterAll(async () => {
  rmSync(dataDir, { recursive: true, force: true });
  await store?.drop();
});

describe('receipt', () => {
  it('writes the customer copy to standard output', async () => {
    const { status, stdout } = await run('receipt', '--id', saleId);
    expect(status).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]?.trim()).toBe('Corner Cafe');
    expect(lines.map((line) => line.trim())).toEqual(
      expect.arrayContaining([
        '1 Main St',
        'Springfield',
        'SALE',
        'APPROVED',
        'CUSTOMER COPY',
        'See you soon',
      ]),
    );
    expect(stdout).toMatch(/^Typed in\s+Mastercard \*\*\*\* 5454$/m);
    expect(stdout).toMatch(/^Order\s+A77$/m);
    expect(lines.every((line) => line.length <= 42)).toBe(true);
    expect(stdout).not.toContain('5454545454545454');
  });

  it('writes the merchant copy at 32 columns', async () => {
    const { status, stdout } = await run('receipt', '--id', saleId, '--copy', 'merchant', '--width', '32');
    expect(status).toBe(0);
    expect(stdout).toContain(`x${'_'.repeat(31)}`);
    expect(
      stdout
        .trimEnd()
        .split('\n')
        .every((line) => line.length <= 32),
    ).toBe(true);
  });

  it('writes the merchant copy of a sale signed on screen as signed, with no line to sign', async () => {
    const { status, stdout } = await run('receipt', '--id', signedId, '--copy', 'merchant');
    expect(status).toBe(0);
    expect(stdout).toMatch(/^ +Signed on screen$/m);
    expect(stdout).not.toContain('x____');
  });

  it('sends the ESC/POS bytes to a printer and says it took them', async () => {
    const printer = await startFakePrinter();
    try {
      const job = printer.nextJob();
      const { status, stdout } = await run(
        'receipt',
        '--id',
        saleId,
        '--width',
        '48',
        '--printer',
        printer.address,
      );
      expect(status).toBe(0);
      expect(stdout.trim()).toBe(`The printer at ${printer.address} took the receipt.`);
      const text = await run('receipt', '--id', saleId, '--width', '48');
      expect(decodeEscPos(await job).copies).toEqual([text.stdout.trimEnd().split('\n')]);
    } finally {
      await printer.close();
    }
  });

  it('says so when the printer does not take them, with exit status 1', async () => {
    const port = await refusedPort();
    const { status, stderr, stdout } = await run(
      'receipt',
      '--id',
      saleId,
      '--printer',
      `tcp://127.0.0.1:${port}`,
    );
    expect(status).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.trim()).toBe(
      `tender: The printer at 127.0.0.1:${port} refused the connection. Check that it is on and that ${port} is its raw printing port (9100 on most).`,
    );
  });

  it('an unknown id, a bad copy or width are refused with what to do', async () => {
    const unknown = await run('receipt', '--id', '9999');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr.trim()).toBe('tender: No transaction has id 9999.');
    const copy = await run('receipt', '--id', saleId, '--copy', 'tab');
    expect(copy.status).toBe(2);
    expect(copy.stderr).toContain('--copy takes customer, merchant or check, not "tab".');
    const notATab = await run('receipt', '--id', saleId, '--copy', 'check');
    expect(notATab.status).toBe(1);
    expect(notATab.stderr.trim()).toBe(
      `tender: Transaction ${saleId} is not a tab (an approved AUTH not voided): only a tab has a check.`,
    );
    const width = await run('receipt', '--id', saleId, '--width', '40');
    expect(width.status).toBe(2);
    expect(width.stderr).toContain('--width takes 32, 42 or 48, not "40".');
    const missing = await run('receipt');
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('receipt needs --id <transaction id>');
  });

  it('writes a tab’s check with --copy check, with the counter’s suggested tips while tips are on', async () => {
    const off = await run('receipt', '--id', tabId, '--copy', 'check');
    expect(off.status).toBe(0);
    expect(off.stdout).toMatch(/^ +AUTH \(TAB\)$/m);
    expect(off.stdout).toMatch(/^TOTAL\s+\$20\.00$/m);
    expect(off.stdout).not.toMatch(/\btips?\b|^TIP/im);
    expect(off.stdout).toContain('CHECK');

    // The percentages this counter's tab screen suggests, kept beside the ledger.
    writeFileSync(
      join(dataDir, 'counter-settings.json'),
      JSON.stringify({ version: 1, tipPercentages: [10, 25], managerPin: null }),
    );
    expect((await run('settings', 'set', 'tips_enabled', 'true')).status).toBe(0);
    try {
      const on = await run('receipt', '--id', tabId, '--copy', 'check', '--width', '32');
      expect(on.status).toBe(0);
      expect(on.stdout).toMatch(/^TIP\s+_{20}$/m);
      expect(on.stdout).toMatch(/^10% {2}tip \$2\.00\s+total \$22\.00$/m);
      expect(on.stdout).toMatch(/^25% {2}tip \$5\.00\s+total \$25\.00$/m);
      expect(on.stdout).not.toContain('15%');
    } finally {
      expect((await run('settings', 'set', 'tips_enabled', 'false')).status).toBe(0);
      rmSync(join(dataDir, 'counter-settings.json'));
    }
  });

  it('is in the usage text', async () => {
    const { stdout } = await run('--help');
    expect(stdout).toContain('receipt --id <id>');
    expect(stdout).toContain('[--copy customer|merchant|check]');
    expect(stdout).toContain('[--printer <printer>]');
  });
});
