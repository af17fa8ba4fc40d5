/**
 * POST /transactions in either format, with the answer read as a plain map of strings (XML text kept
 * exactly as sent), for the API tests of the transaction rules; and the checks those tests share on
 * what the lists then show.
 */
import { XMLParser } from 'fast-xml-parser';
import { expect } from 'vitest';
import type { Batch, TransactionListItem } from '../../shared/api/schemas';
import type { TestGateway } from './gateway';
import { expectedTotals } from './ledger-audit';

export type Format = 'json' | 'xml';
export type Answer = Record<string, string | undefined>;
export interface Fields {
  readonly [name: string]: string | Fields;
}

const answerParser = new XMLParser({ parseTagValue: false, ignoreDeclaration: true });

const escapeXml = (value: string): string =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function xmlElements(fields: Fields): string {
  return Object.entries(fields)
    .map(
      ([name, value]) =>
        `<${name}>${typeof value === 'string' ? escapeXml(value) : xmlElements(value)}</${name}>`,
    )
    .join('');
}

/** POSTs a transaction as JSON (any JSON value allowed) and returns the answer. */
export async function postJson(t: TestGateway, body: Record<string, unknown>): Promise<Answer> {
  const response = await t.request('transactions', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', api_key: t.key },
    body: JSON.stringify(body),
  });
  expect(response.status, response.body).toBe(200);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  return response.json<Answer>();
}

/** POSTs a <transaction> XML body and returns the parsed <transaction> answer. */
export async function postXml(t: TestGateway, fields: Fields): Promise<Answer> {
  const response = await t.request('transactions', {
    method: 'POST',
    headers: { 'content-type': 'application/xml', accept: 'application/xml', api_key: t.key },
    body: `<?xml version="1.0" encoding="UTF-8"?><transaction>${xmlElements(fields)}</transaction>`,
  });
  expect(response.status, response.body).toBe(200);
  expect(response.headers['content-type']).toMatch(/^application\/xml/);
  const document = answerParser.parse(response.body) as { transaction?: Answer };
  expect(document.transaction).toBeDefined();
  return document.transaction ?? {};
}

export function post(t: TestGateway, format: Format, fields: Fields): Promise<Answer> {
  return format === 'json' ? postJson(t, fields) : postXml(t, fields);
}

/** The list item of one transaction: GET /transactions?id= answers it and nothing else. */
export async function listItem(t: TestGateway, id: string): Promise<TransactionListItem> {
  const [item, ...rest] = await t.client.listTransactions({ id });
  expect(rest).toEqual([]);
  expect(item, `transaction ${id} is listed`).toBeDefined();
  return item as TransactionListItem;
}

/**
 * Every batch's counts and totals must be exactly what its approved, unvoided rows add up to.
 * Returns the batches it checked.
 */
export async function expectBatchesMatchRows(t: TestGateway): Promise<Batch[]> {
  const batches = await t.client.listBatches({ page_size: 100 });
  for (const batch of batches) {
    const rows = await t.client.listTransactions({ batch_id: batch.id, page_size: 100 });
    expect(batch, `batch ${batch.id} against its rows`).toMatchObject(expectedTotals(rows));
  }
  return batches;
}
