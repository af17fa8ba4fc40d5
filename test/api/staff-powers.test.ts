/**
 * Who may refund, void, close and charge past a possible duplicate, over real HTTPS in JSON and XML.
 * Another program's key carries its own approval in its permissions; the screens' own key carries
 * none, so these requests from the counter go through the host, which runs each one in the engine
 * only once a manager has allowed it, and records who made it and who allowed it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Permission } from '../../shared/api/permissions';
import { COUNTER_SETTINGS_FILE } from '../../electron/bridge/counter-preferences';
import { dispatchInvoke } from '../../electron/bridge/dispatch';
import { hashPin } from '../../electron/bridge/manager-pin';
import type { Terminal } from '../../electron/bridge/terminal';
import { startTerminal } from '../support/terminal';
import {
  auditWords,
  recentAudit,
  startTestGateway,
  VISA,
  MASTERCARD,
  type TestGateway,
} from '../support/gateway';
import { xmlElements, type Fields, type Format } from '../support/transactions';

const FORMATS: Format[] = ['json', 'xml'];
const MANAGER_PIN = '2580';
const CASHIER_PIN = '1470';
const parser = new XMLParser({ parseTagValue: false, ignoreDeclaration: true });

let t: TestGateway;
let terminal: Terminal;
let screensKey: string;

beforeAll(async () => {
  t = await startTestGateway({ duplicateWindowMinutes: 2 });
  await t.gateway.engine.staff.create(
    { name: 'Maya', role: 'manager', pin: MANAGER_PIN, serverId: '03' },
    'test',
  );
  await t.gateway.engine.staff.create(
    { name: 'Cole', role: 'cashier', pin: CASHIER_PIN, serverId: '07' },
    'test',
  );
  terminal = await startTerminal(t, { shell: 'desktop' });
  screensKey = ((await bridge('terminal:session')) as { apiKey: string }).apiKey;
});
afterAll(async () => {
  await terminal.stop();
  await t.close();
});

async function bridge(channel: string, input?: unknown): Promise<unknown> {
  const result = await dispatchInvoke(terminal.handlers, channel, input);
  if (!result.ok) throw Object.assign(new Error(result.error.message), { code: result.error.code });
  return result.value;
}

async function bridgeRefusal(channel: string, input?: unknown) {
  const result = await dispatchInvoke(terminal.handlers, channel, input);
  if (result.ok) throw new Error(`${channel} was not refused`);
  return result.error;
}

interface Sent {
  status: number;
  fields: Record<string, string>;
}

/** POST /transactions with this key, in this format, answered in the same. */
async function send(key: string, format: Format, fields: Fields, idempotencyKey?: string): Promise<Sent> {
  const type = format === 'json' ? 'application/json' : 'application/xml';
  const response = await t.request('transactions', {
    method: 'POST',
    headers: {
      'content-type': type,
      accept: type,
      api_key: key,
      ...(idempotencyKey !== undefined && { 'idempotency-key': idempotencyKey }),
    },
    body:
      format === 'json'
        ? JSON.stringify(fields)
        : `<?xml version="1.0" encoding="UTF-8"?><transaction>${xmlElements(fields)}</transaction>`,
  });
  expect(response.headers['content-type']).toMatch(
    format === 'json' ? /^application\/json/ : /^application\/xml/,
  );
  const parsed =
    format === 'json'
      ? (JSON.parse(response.body) as Record<string, string>)
      : (Object.values(parser.parse(response.body) as Record<string, Record<string, string>>)[0] ?? {});
  return { status: response.status, fields: parsed };
}

/** What the ledger and the audit log hold now, to show that a refusal recorded nothing. */
async function ledgerState() {
  const items = await t.client.listTransactions({ page_size: 1 });
  return { newest: items[0]?.id ?? '', audit: (await recentAudit(t, 1))[0]?.id ?? 0 };
}

async function approvedSale(amount: string, card: Fields = VISA): Promise<string> {
  const sale = await send(t.key, 'json', { type: 'SALE', amount, ...card });
  expect(sale.fields.result).toBe('Approved');
  return sale.fields.id ?? '';
}

/** A sale in a closed batch, which only a refund can reverse. */
async function settledSale(amount: string): Promise<string> {
  const id = await approvedSale(amount, MASTERCARD);
  await t.client.closeOpenBatch();
  return id;
}

describe('the narrower permissions of other programs', () => {
  const cases: { type: string; fields: (cents: string) => Promise<Fields>; needs: Permission }[] = [
    {
      type: 'SALE',
      fields: async (cents) => ({ type: 'SALE', amount: `3.${cents}`, ...VISA }),
      needs: 'transactions:sale',
    },
    {
      type: 'AUTH',
      fields: async (cents) => ({ type: 'AUTH', amount: `4.${cents}`, ...VISA }),
      needs: 'transactions:sale',
    },
    {
      type: 'FORCED SALE',
      fields: async (cents) => ({
        type: 'FORCED SALE',
        amount: `5.${cents}`,
        authorization_code: 'V0ICE1',
        ...VISA,
      }),
      needs: 'transactions:sale',
    },
    {
      type: 'REFUND',
      fields: async (cents) => ({ type: 'REFUND', amount: `6.${cents}`, ...VISA }),
      needs: 'transactions:refund',
    },
    {
      type: 'VOID',
      fields: async (cents) => ({ type: 'VOID', id: await approvedSale(`7.${cents}`) }),
      needs: 'transactions:void',
    },
  ];

  for (const format of FORMATS) {
    for (const { type, fields, needs } of cases) {
      it(`a key without ${needs} gets 403 for ${type} in ${format}, and nothing is recorded`, async () => {
        const others = (['transactions:sale', 'transactions:refund', 'transactions:void'] as const).filter(
          (permission) => permission !== needs,
        );
        const key = await t.createKey([...others, 'transactions:read']);
        const body = await fields(format === 'json' ? '01' : '02');
        const before = await ledgerState();
        const refused = await send(key, format, body);
        expect(refused.status).toBe(403);
        expect(refused.fields).toMatchObject({ status: '403', error: 'forbidden' });
        // Every permission that would allow it is named, not only the narrower one.
        expect(refused.fields.message).toBe(
          `This API key lacks the transactions:write or ${needs} permission, which ${type} needs. Nothing was recorded.`,
        );
        expect(await ledgerState()).toEqual(before);

        const allowed = await send(await t.createKey([needs]), format, body);
        expect(allowed.status).toBe(200);
        expect(allowed.fields.result).toBe('Approved');
      });
    }
  }

  it('transactions:sale captures a tab; a refund of a settled sale needs transactions:refund', async () => {
    const sales = await t.createKey(['transactions:sale']);
    const tab = await send(sales, 'json', { type: 'AUTH', amount: '20.00', ...MASTERCARD });
    const capture = await send(sales, 'json', { type: 'CAPTURE', id: tab.fields.id ?? '', amount: '20.00' });
    expect(capture.fields.result).toBe('Approved');
    const sale = await settledSale('9.10');
    expect((await send(sales, 'xml', { type: 'REFUND', id: sale, amount: '9.10' })).status).toBe(403);
    const refund = await send(await t.createKey(['transactions:refund']), 'xml', {
      type: 'REFUND',
      id: sale,
      amount: '9.10',
    });
    expect(refund.fields.result).toBe('Approved');
  });

  for (const format of FORMATS) {
    it(`duplicate_override needs transactions:write; transactions:sale alone gets 403 in ${format}`, async () => {
      const card = { card: '4012888888881881', exp_date: '1230' };
      const amount = format === 'json' ? '41.00' : '42.00';
      await approvedSale(amount, card);
      const sales = await t.createKey(['transactions:sale']);
      const again = await send(sales, format, { type: 'SALE', amount, ...card });
      expect(again.fields).toMatchObject({ result: 'Rejected', error_code: '8033' });
      const before = await ledgerState();
      const override = await send(sales, format, {
        type: 'SALE',
        amount,
        ...card,
        duplicate_override: 'true',
      });
      expect(override.status).toBe(403);
      expect(override.fields.message).toContain('transactions:write');
      expect(await ledgerState()).toEqual(before);
      const written = await send(await t.createKey(['transactions:write']), format, {
        type: 'SALE',
        amount,
        ...card,
        duplicate_override: 'true',
      });
      expect(written.fields.result).toBe('Approved');
    });
  }

  it('a type given twice in XML needs the permission of each: 403, and nothing recorded', async () => {
    const sales = await t.createKey(['transactions:sale']);
    const before = await ledgerState();
    for (const types of ['<type>REFUND</type><type>SALE</type>', '<type>SALE</type><type>REFUND</type>']) {
      const response = await t.request('transactions', {
        method: 'POST',
        headers: { api_key: sales, 'content-type': 'application/xml', accept: 'application/xml' },
        body: `<transaction>${types}<amount>75.00</amount><card>4111111111111111</card><exp_date>1230</exp_date></transaction>`,
      });
      expect(response.status).toBe(403);
      expect(response.body).toContain('transactions:refund');
    }
    expect(await ledgerState()).toEqual(before);
  });

  it('a key with none of the transaction permissions is refused before its body is read', async () => {
    const reader = await t.createKey(['transactions:read']);
    const refused = await send(reader, 'json', { type: 'SALE', amount: '1.00', ...VISA });
    expect(refused.status).toBe(403);
  });
});

describe("the screens' own key holds no standing power", () => {
  beforeAll(async () => {
    await bridge('staff:sign-in', { pin: CASHIER_PIN });
  });

  for (const format of FORMATS) {
    it(`refuses a refund, a void and a charge past a duplicate sent directly, in ${format}, recording nothing`, async () => {
      const sale = await settledSale(format === 'json' ? '12.00' : '12.50');
      const open = await approvedSale(format === 'json' ? '13.00' : '13.50');
      const card = { card: '4222222222222', exp_date: '1230' };
      const amount = format === 'json' ? '14.00' : '15.00';
      await approvedSale(amount, card);
      const before = await ledgerState();
      const attempts: Fields[] = [
        { type: 'REFUND', id: sale, amount: '1.00' },
        { type: 'REFUND', amount: '500.00', ...VISA },
        { type: 'VOID', id: open },
        { type: 'SALE', amount, ...card, duplicate_override: 'true' },
      ];
      for (const attempt of attempts) {
        const refused = await send(screensKey, format, attempt, `bypass-${format}-${String(attempt.type)}`);
        expect(refused.status, JSON.stringify(attempt)).toBe(403);
        expect(refused.fields.error).toBe('forbidden');
      }
      expect(await ledgerState()).toEqual(before);
    });
  }

  it('refuses to close the batch, in JSON and XML', async () => {
    await approvedSale('5.00');
    for (const format of FORMATS) {
      const type = format === 'json' ? 'application/json' : 'application/xml';
      const response = await t.request('batches/open', {
        method: 'PUT',
        headers: { accept: type, api_key: screensKey },
      });
      expect(response.status).toBe(403);
      expect(response.body).toContain('batches:close');
    }
    expect((await t.client.openBatch())?.status).toBe('OPEN');
  });

  it('sells for the cashier signed in, and refuses to sell while the counter is locked', async () => {
    const sale = await send(screensKey, 'json', { type: 'SALE', amount: '6.00', ...VISA });
    const [item] = await t.client.listTransactions({ id: sale.fields.id ?? '' });
    expect(item?.cashier).toBe('Cole');
    await bridge('staff:lock');
    const before = await ledgerState();
    const locked = await send(screensKey, 'xml', { type: 'SALE', amount: '6.01', ...VISA });
    expect(locked.status).toBe(403);
    expect(locked.fields).toMatchObject({ error: 'counter_locked' });
    expect(await ledgerState()).toEqual(before);
    await bridge('staff:sign-in', { pin: CASHIER_PIN });
  });
});

describe('a manager allows one request at the counter', () => {
  beforeAll(async () => {
    await bridge('staff:sign-in', { pin: CASHIER_PIN });
  });

  it('a refund needs a manager PIN; wrong PINs and a cashier PIN are refused and logged', async () => {
    const sale = await settledSale('22.00');
    const request = { type: 'REFUND', id: sale, amount: '22.00' };
    const before = await ledgerState();
    expect(
      await bridgeRefusal('counter:approved-transaction', { request, idempotencyKey: 'r1' }),
    ).toMatchObject({
      code: 'pin-required',
    });
    expect(
      await bridgeRefusal('counter:approved-transaction', { request, idempotencyKey: 'r1', pin: '9999' }),
    ).toMatchObject({ code: 'wrong-pin' });
    expect(
      await bridgeRefusal('counter:approved-transaction', {
        request,
        idempotencyKey: 'r1',
        pin: CASHIER_PIN,
      }),
    ).toMatchObject({ code: 'wrong-pin', message: 'Cole is a cashier. A manager must enter their PIN.' });
    const failures = await recentAudit(t, 2);
    expect(failures.map((entry) => entry.action)).toEqual(['pin_failed', 'pin_failed']);
    expect(failures[1]?.subject).toBe(`refund of $22.00 (transaction ${sale})`);
    // The wrong PIN is in no entry's words; a batch's confirmation number may hold any four digits.
    expect(auditWords(await recentAudit(t, 5))).not.toMatch(/\b9999\b/);
    expect((await ledgerState()).newest).toBe(before.newest);

    const answer = (await bridge('counter:approved-transaction', {
      request,
      idempotencyKey: 'r1',
      pin: MANAGER_PIN,
    })) as { result: string; id: string };
    expect(answer.result).toBe('Approved');
    const [item] = await t.client.listTransactions({ id: answer.id });
    expect(item?.cashier).toBe('Cole');
    const entry = (await recentAudit(t, 1))[0];
    expect(entry).toMatchObject({ action: 'refund', subject: `transaction ${answer.id}` });
    expect(entry?.actor).toMatch(
      /^Cole at Tender desktop app( \([\w-]+\))? \(key [0-9a-f]{16}\), approved by manager Maya$/,
    );
    // The same request again is answered once, never refunded twice.
    const again = (await bridge('counter:approved-transaction', {
      request,
      idempotencyKey: 'r1',
      pin: MANAGER_PIN,
    })) as { id: string };
    expect(again.id).toBe(answer.id);
  });

  it('a void and an unmatched refund with a manager signed in need no PIN', async () => {
    await bridge('staff:sign-in', { pin: MANAGER_PIN });
    const open = await approvedSale('8.00');
    const voided = (await bridge('counter:approved-transaction', {
      request: { type: 'VOID', id: open },
      idempotencyKey: 'v1',
    })) as { result: string };
    expect(voided.result).toBe('Approved');
    const unmatched = (await bridge('counter:approved-transaction', {
      request: { type: 'REFUND', amount: '700.00', ...VISA },
      idempotencyKey: 'u1',
    })) as { result: string; id: string };
    expect(unmatched.result).toBe('Approved');
    expect((await recentAudit(t, 1))[0]?.actor).toMatch(/^Maya at .*, approved by manager Maya$/);
    await bridge('staff:sign-in', { pin: CASHIER_PIN });
  });

  it('a sale is not run this way: the screens send it with their own key', async () => {
    expect(
      await bridgeRefusal('counter:approved-transaction', {
        request: { type: 'SALE', amount: '1.00', ...VISA },
        idempotencyKey: 's1',
        pin: MANAGER_PIN,
      }),
    ).toMatchObject({ code: 'refused' });
  });

  it('refuses a net written other than as the API takes it, asking for no PIN and closing nothing', async () => {
    await approvedSale('31.00');
    const open = await t.client.openBatch();
    if (!open) throw new Error('no open batch');
    // The net the manager saw, with a leading zero: it would close this very batch if read.
    const sign = open.net_amount.startsWith('-') ? '-' : '';
    const padded = `${sign}0${open.net_amount.slice(sign.length)}`;
    for (const expectedNetAmount of [padded, '005.00', '-05.00', '+5.00', '5.0', '5']) {
      const refusal = await bridgeRefusal('counter:approved-close', {
        expectedTotalCount: Number(open.total_count),
        expectedNetAmount,
        pin: MANAGER_PIN,
      });
      expect(refusal, expectedNetAmount).toMatchObject({
        code: 'invalid-input',
        message: expect.stringContaining('must be dollars with two decimals, like 240.50, 0.50 or -12.00'),
      });
    }
    expect(await t.client.openBatch()).toMatchObject({ id: open.id, status: 'OPEN' });
  });

  it('closes the batch the manager saw, and not one that changed', async () => {
    await approvedSale('30.00');
    const open = await t.client.openBatch();
    if (!open) throw new Error('no open batch');
    const stale = (await bridge('counter:approved-close', {
      expectedTotalCount: Number(open.total_count) + 1,
      expectedNetAmount: open.net_amount,
      pin: MANAGER_PIN,
    })) as { outcome: string };
    expect(stale.outcome).toBe('changed');
    // A net above what one transaction may be is still compared, as the REST route does: not closed.
    const large = (await bridge('counter:approved-close', {
      expectedTotalCount: Number(open.total_count),
      expectedNetAmount: '123456789.00',
      pin: MANAGER_PIN,
    })) as { outcome: string };
    expect(large.outcome).toBe('changed');
    expect((await t.client.openBatch())?.id).toBe(open.id);
    expect(
      await bridgeRefusal('counter:approved-close', {
        expectedTotalCount: Number(open.total_count),
        expectedNetAmount: open.net_amount,
      }),
    ).toMatchObject({ code: 'pin-required' });
    const closed = (await bridge('counter:approved-close', {
      expectedTotalCount: Number(open.total_count),
      expectedNetAmount: open.net_amount,
      pin: MANAGER_PIN,
    })) as { outcome: string; batch: { id: string; status: string } };
    expect(closed).toMatchObject({ outcome: 'closed', batch: { id: open.id, status: 'CLOSED' } });
    // The same batch as the API shows it, each lane's share included, whichever way it was closed.
    const [listed] = await t.client.listBatches({ id: open.id });
    expect(listed?.lanes).toHaveLength(1);
    expect(closed.batch).toEqual(listed);
    expect((await recentAudit(t, 1))[0]).toMatchObject({ action: 'batch_close' });
    expect((await recentAudit(t, 1))[0]?.actor).toContain('approved by manager Maya');
  });
});

describe('staff accounts at the counter', () => {
  it('a name holding a control character is refused as it arrives, before any PIN is checked', async () => {
    const before = (await recentAudit(t, 1))[0]?.id;
    for (const pin of ['0000', MANAGER_PIN]) {
      expect(
        await bridgeRefusal('staff:create', { name: 'A\u0000', role: 'cashier', newPin: '5555', pin }),
      ).toMatchObject({ code: 'invalid-input' });
    }
    // Neither the wrong PIN nor the right one was looked at: nothing was counted or written.
    expect((await recentAudit(t, 1))[0]?.id).toBe(before);
  });

  it('a name holding a card number is refused before any PIN is checked, and is written nowhere', async () => {
    const before = (await recentAudit(t, 1))[0]?.id;
    const staffBefore = t.gateway.engine.staff.list().length;
    for (const name of ['Ann 4111 1111 1111 1111', 'Till 4111-1111-1111-1111 x']) {
      for (const pin of ['0000', MANAGER_PIN]) {
        expect(
          await bridgeRefusal('staff:create', { name, role: 'cashier', newPin: '5555', pin }),
        ).toMatchObject({ code: 'invalid-input', message: expect.stringContaining('card number') });
      }
      await expect(
        t.gateway.engine.staff.create({ name, role: 'cashier', pin: '5556' }, 'test'),
      ).rejects.toThrow(/card number/);
      await expect(t.gateway.engine.staff.change('Cole', { name }, 'test')).rejects.toThrow(/card number/);
      await expect(t.gateway.engine.keys.create(name)).rejects.toThrow(/card number/);
    }
    // No wrong PIN was counted for it, and nothing else was written: no audit entry holds the number.
    expect((await recentAudit(t, 1))[0]?.id).toBe(before);
    expect(t.gateway.engine.staff.list()).toHaveLength(staffBefore);
    expect(t.gateway.engine.staff.list().map((member) => member.name)).toContain('Cole');
  });

  it('a cashier adds, changes or retires no one without a manager; the manager can, and it is audited', async () => {
    await bridge('staff:sign-in', { pin: CASHIER_PIN });
    const person = { name: 'Nia', role: 'cashier', newPin: '3692' };
    expect(await bridgeRefusal('staff:create', person)).toMatchObject({ code: 'pin-required' });
    expect(await bridgeRefusal('staff:create', { ...person, pin: CASHIER_PIN })).toMatchObject({
      code: 'wrong-pin',
    });
    expect(await bridgeRefusal('staff:set-lock-minutes', { minutes: 0 })).toMatchObject({
      code: 'pin-required',
    });
    const nia = (await bridge('staff:create', { ...person, pin: MANAGER_PIN })) as { id: number };
    expect((await recentAudit(t, 1))[0]).toMatchObject({
      action: 'staff_create',
      subject: `staff ${nia.id} "Nia"`,
    });
    expect((await recentAudit(t, 1))[0]?.actor).toContain('approved by manager Maya');
    expect(await bridgeRefusal('staff:create', { ...person, name: 'Nia B', pin: MANAGER_PIN })).toMatchObject(
      {
        code: 'invalid-input',
        message: 'That PIN is taken: each person needs a PIN of their own.',
      },
    );
    expect(await bridgeRefusal('staff:retire', { id: nia.id })).toMatchObject({ code: 'pin-required' });
    expect(await bridge('staff:retire', { id: nia.id, pin: MANAGER_PIN })).toMatchObject({ retired: true });
    expect(await bridgeRefusal('staff:sign-in', { pin: '3692' })).toMatchObject({ code: 'wrong-pin' });
    // Retired staff stay in history.
    expect(t.gateway.engine.staff.list().find((member) => member.id === nia.id)?.retired).not.toBeNull();
    await bridge('staff:sign-in', { pin: CASHIER_PIN });
  });

  it("the counter's old manager:set-pin is refused: each manager has a PIN of their own", async () => {
    expect(await bridgeRefusal('manager:set-pin', { newPin: '1234' })).toMatchObject({ code: 'refused' });
  });
});

describe('cashiers in the lists', () => {
  it('name the person at the counter and the key of another program, and filter by either', async () => {
    await bridge('staff:sign-in', { pin: CASHIER_PIN });
    const fromCounter = await send(screensKey, 'json', { type: 'SALE', amount: '4.44', ...VISA });
    const kitchen = (await t.gateway.engine.keys.create('Kitchen display', ['transactions:sale'])).key;
    const fromKitchen = await send(kitchen, 'xml', { type: 'SALE', amount: '4.45', ...VISA });
    const cole = await t.client.listTransactions({ cashier: 'Cole', page_size: 100 });
    expect(cole.map((item) => item.id)).toContain(fromCounter.fields.id);
    expect(cole.every((item) => item.cashier === 'Cole')).toBe(true);
    const byKitchen = await t.client.listTransactions({ cashier: 'Kitchen display' });
    expect(byKitchen.map((item) => item.id)).toEqual([fromKitchen.fields.id]);
    const xml = await t.request(`transactions?id=${fromKitchen.fields.id ?? ''}`, {
      headers: { accept: 'application/xml', api_key: t.key },
    });
    expect(xml.body).toContain('<cashier>Kitchen display</cashier>');
  });
});

describe("the counter's manager PIN of earlier versions", () => {
  it('becomes the first manager, who signs in with it', async () => {
    const other = await startTestGateway();
    const stored = await hashPin('4826');
    writeFileSync(
      join(other.dataDir, COUNTER_SETTINGS_FILE),
      JSON.stringify({ version: 1, tipPercentages: [15, 18, 20], managerPin: stored }),
    );
    const counter = await startTerminal(other);
    try {
      expect(other.gateway.engine.staff.list()).toMatchObject([
        { name: 'Manager', role: 'manager', retired: null },
      ]);
      const signedIn = await dispatchInvoke(counter.handlers, 'staff:sign-in', { pin: '4826' });
      expect(signedIn).toMatchObject({ ok: true, value: { signedIn: { name: 'Manager', role: 'manager' } } });
      expect((await recentAudit(other, 5)).map((entry) => entry.action)).toContain('staff_create');
    } finally {
      await counter.stop();
      await other.close();
    }
  });

  it('a first start with no staff asks for the first manager, once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tender-first-'));
    rmSync(dir, { recursive: true, force: true });
    const other = await startTestGateway();
    const counter = await startTerminal(other);
    try {
      expect(await dispatchInvoke(counter.handlers, 'staff:session', undefined)).toMatchObject({
        ok: true,
        value: { signedIn: null, needsFirstManager: true },
      });
      const created = await dispatchInvoke(counter.handlers, 'staff:first-manager', {
        name: 'Owner',
        newPin: '8642',
      });
      expect(created).toMatchObject({ ok: true, value: { signedIn: { name: 'Owner', role: 'manager' } } });
      expect(
        await dispatchInvoke(counter.handlers, 'staff:first-manager', { name: 'Mallory', newPin: '1357' }),
      ).toMatchObject({ ok: false, error: { code: 'refused' } });
    } finally {
      await counter.stop();
      await other.close();
    }
  });

  it('makes one first manager of two asked for at once', async () => {
    const other = await startTestGateway();
    const counter = await startTerminal(other);
    try {
      const both = await Promise.all([
        dispatchInvoke(counter.handlers, 'staff:first-manager', { name: 'Owner', newPin: '8642' }),
        dispatchInvoke(counter.handlers, 'staff:first-manager', { name: 'Mallory', newPin: '1357' }),
      ]);
      expect(both.filter((result) => result.ok)).toHaveLength(1);
      expect(both.find((result) => !result.ok)).toMatchObject({ ok: false, error: { code: 'refused' } });
      expect(other.gateway.engine.staff.list()).toHaveLength(1);
    } finally {
      await counter.stop();
      await other.close();
    }
  });
});

describe('the idle lock, kept by the host', () => {
  it('signs out whoever was signed in once the counter went unused, so a client coming later acts for no one', async () => {
    let now = Date.now();
    const other = await startTestGateway({ engine: { now: () => now } });
    await other.gateway.engine.staff.create({ name: 'Maya', role: 'manager', pin: MANAGER_PIN }, 'test');
    await other.gateway.engine.settings.setFromText('lock_after_minutes', '1');
    const counter = await startTerminal(other);
    const call = (channel: string, input?: unknown) => dispatchInvoke(counter.handlers, channel, input);
    try {
      await call('staff:sign-in', { pin: MANAGER_PIN });
      // A screen in use keeps it signed in, each use starting the minute again.
      now += 50_000;
      expect(await call('staff:active')).toEqual({ ok: true, value: null });
      now += 50_000;
      expect(await call('staff:session')).toMatchObject({ ok: true, value: { signedIn: { name: 'Maya' } } });

      // The page goes away; 70 s later another client of the bridge finds the counter locked.
      now += 70_000;
      expect(await call('staff:session')).toMatchObject({ ok: true, value: { signedIn: null } });
      const { apiKey } = ((await call('terminal:session')) as { value: { apiKey: string } }).value;
      const sale = await other.request('transactions', {
        method: 'POST',
        headers: { api_key: apiKey, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ type: 'SALE', amount: '6.00', ...VISA }),
      });
      expect(sale.status).toBe(403);
      expect(
        await call('counter:approved-transaction', {
          request: { type: 'REFUND', amount: '750.00', ...VISA },
          idempotencyKey: 'idle-lock-refund',
        }),
      ).toMatchObject({ ok: false, error: { code: 'refused' } });
      // Nor anything else the screens ask, but the lock screen's own requests.
      expect(await call('keys:create', { name: 'x', permissions: ['transactions:write'] })).toEqual({
        ok: false,
        error: { code: 'refused', message: 'The counter is locked. Sign in with your PIN.' },
      });
      // The sign-out is written as the lock is found, not awaited by the reads that found it: on a
      // store server its audit entry lands once its write commits.
      const signOut = async () => (await recentAudit(other, 10)).find((entry) => entry.action === 'sign_out');
      let signedOut = await signOut();
      while (signedOut === undefined) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        signedOut = await signOut();
      }
      expect(signedOut.detail).toBe('locked after 1 min unused');
    } finally {
      await counter.stop();
      await other.close();
    }
  });
});

describe('wrong PINs at the counter, as its screens see them', () => {
  it('a guess near the manager’s PIN reads the same as one far from it, once the manager has typed theirs', async () => {
    const own = await startTestGateway();
    await own.gateway.engine.staff.create({ name: 'Maya', role: 'manager', pin: MANAGER_PIN }, 'test');
    await own.gateway.engine.staff.create({ name: 'Cole', role: 'cashier', pin: CASHIER_PIN }, 'test');
    const screens = await startTerminal(own);
    const call = async (channel: string, input?: unknown) => {
      const result = await dispatchInvoke(screens.handlers, channel, input);
      return result.ok ? 'ok' : result.error.message;
    };
    try {
      expect(await call('staff:sign-in', { pin: CASHIER_PIN })).toBe('ok');
      // In the manager dialog, the cashier tries 2589 (one digit from the manager's 2580); the
      // manager then comes over and approves in that same dialog.
      expect(await call('manager:verify', { pin: '2589', action: 'void' })).toMatch(/4 more tries/);
      expect(await call('manager:verify', { pin: MANAGER_PIN, action: 'void' })).toBe('ok');
      // Two wrong PINs typed: "3 more tries", as after a guess far from the manager's.
      expect(await call('manager:verify', { pin: '0000', action: 'void' })).toMatch(/3 more tries/);

      // At the sign-in keypad: a guess near the manager's PIN, then the manager signing in on the
      // keypad shown again, leaves both wrong PINs counted.
      await call('staff:lock');
      expect(await call('staff:sign-in', { pin: '2508', prompt: 'keypad-0002' })).toMatch(/4 more tries/);
      expect(await call('staff:sign-in', { pin: MANAGER_PIN, prompt: 'keypad-0003' })).toBe('ok');
      await call('staff:lock');
      expect(await call('staff:sign-in', { pin: '0000', prompt: 'keypad-0004' })).toMatch(/3 more tries/);
      // The manager's own slip, then their PIN, on one showing of the keypad: the slip is taken back.
      expect(await call('staff:sign-in', { pin: '2850', prompt: 'keypad-0005' })).toMatch(/2 more tries/);
      expect(await call('staff:sign-in', { pin: MANAGER_PIN, prompt: 'keypad-0005' })).toBe('ok');
      await call('staff:lock');
      expect(await call('staff:sign-in', { pin: '0001', prompt: 'keypad-0006' })).toMatch(/2 more tries/);
      // A prompt the screens could not have made up is refused before any PIN is checked.
      expect(await call('staff:sign-in', { pin: MANAGER_PIN, prompt: 'x' })).toMatch(/prompt/);
    } finally {
      await screens.stop();
      await own.close();
    }
  });
});
