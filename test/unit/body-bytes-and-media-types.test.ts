import { describe, expect, it } from 'vitest';
import {
  acceptsMediaType,
  decodeBody,
  parseBody,
  prefersPlainText,
  responseMediaType,
} from '../../electron/gateway/http/formats';
import { problemOf } from '../support/api-problems';
import { AMOUNT_PATTERN, closeBatchQuerySchema, transactionListQuerySchema } from '../../shared/api/schemas';
import { parseMoney } from '../../shared/money';

describe('reading body bytes', () => {
  it('reads UTF-8, with or without a utf-8 charset', () => {
    const bytes = Buffer.from('{"first_name":"René"}', 'utf8');
    expect(decodeBody(bytes, 'application/json')).toBe('{"first_name":"René"}');
    expect(decodeBody(bytes, 'application/json; charset=UTF-8')).toBe('{"first_name":"René"}');
    expect(decodeBody(bytes, 'text/xml;charset="utf-8"')).toBe('{"first_name":"René"}');
  });

  it('refuses bytes that are not UTF-8 with 400, never reading them as U+FFFD', () => {
    for (const bad of [[0xe9], [0xc3], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80]]) {
      const body = Buffer.concat([Buffer.from('{"first_name":"Ren'), Buffer.from(bad), Buffer.from('"}')]);
      expect(problemOf(() => decodeBody(body, 'application/json'))).toMatch(
        /^400 The body is not valid UTF-8/,
      );
    }
  });

  it('refuses a charset other than UTF-8 or US-ASCII with 415, whatever the bytes', () => {
    for (const contentType of [
      'application/json; charset=iso-8859-1',
      'application/xml; charset=latin1',
      'application/json; charset=utf-16',
      'application/json; charset="us-ascii-x"',
    ]) {
      expect(problemOf(() => decodeBody(Buffer.from('{}'), contentType))).toMatch(/^415 /);
    }
  });

  it('reads US-ASCII, a subset of UTF-8, however the charset is spelled', () => {
    const bytes = Buffer.from('{"first_name":"Rene"}', 'ascii');
    for (const contentType of [
      'application/json; charset=us-ascii',
      'application/json;charset=US-ASCII',
      'application/json; charset="us-ascii"',
      'text/xml; charset=ASCII',
      'application/json; charset="ascii"',
      'application/json; charset="us\\-ascii"',
    ]) {
      expect(decodeBody(bytes, contentType), contentType).toBe('{"first_name":"Rene"}');
    }
  });

  it('refuses a byte of 0x80 or above under US-ASCII with 400, naming the first', () => {
    for (const bad of [[0xe9], [0xc3, 0xa9], [0x80]]) {
      const body = Buffer.concat([Buffer.from('{"first_name":"Ren'), Buffer.from(bad), Buffer.from('"}')]);
      expect(problemOf(() => decodeBody(body, 'application/json; charset=us-ascii'))).toBe(
        `400 The body is not US-ASCII, as its Content-Type says: byte 19 is 0x${bad[0]?.toString(16).toUpperCase()}, and US-ASCII has only bytes below 0x80. Send the body as UTF-8 with charset=utf-8.`,
      );
    }
  });
});

describe('the encoding an XML body declares', () => {
  const sale = (declared: string, invoice: string) =>
    `<?xml version="1.0" encoding="${declared}"?><transaction><type>SALE</type><invoice>${invoice}</invoice></transaction>`;

  it('reads US-ASCII as UTF-8 while every character is ASCII', () => {
    for (const declared of ['US-ASCII', 'us-ascii', 'ascii', 'UTF-8']) {
      expect(
        problemOf(() => parseBody(sale(declared, 'Rene'), 'xml', 'transaction')),
        declared,
      ).toBe('no problem');
    }
  });

  it('refuses US-ASCII with a character that is not ASCII, and any other encoding, with 400', () => {
    expect(problemOf(() => parseBody(sale('US-ASCII', 'René'), 'xml', 'transaction'))).toBe(
      '400 The body declares the encoding US-ASCII but holds a character that is not ASCII. Send XML as UTF-8.',
    );
    for (const declared of ['ISO-8859-1', 'UTF-16']) {
      expect(problemOf(() => parseBody(sale(declared, 'Rene'), 'xml', 'transaction'))).toBe(
        '400 The body declares an encoding other than UTF-8. Send XML as UTF-8.',
      );
    }
  });
});

describe('the media type of answers', () => {
  it('answers text/xml when text/xml was asked for, application/xml otherwise', () => {
    expect(responseMediaType({ accept: 'text/xml' })).toBe('text/xml');
    expect(responseMediaType({ accept: 'text/*' })).toBe('text/xml');
    expect(responseMediaType({ 'content-type': 'text/xml' })).toBe('text/xml');
    expect(responseMediaType({ accept: '*/*', 'content-type': 'text/xml; charset=utf-8' })).toBe('text/xml');
    expect(responseMediaType({ accept: 'application/xml', 'content-type': 'text/xml' })).toBe(
      'application/xml',
    );
    expect(responseMediaType({ accept: 'application/*', 'content-type': 'text/xml' })).toBe(
      'application/xml',
    );
    expect(responseMediaType({ 'content-type': 'application/xml' })).toBe('application/xml');
    expect(responseMediaType({ accept: 'application/xml, text/xml' })).toBe('application/xml');
    expect(responseMediaType({ accept: 'text/xml, application/xml' })).toBe('text/xml');
    expect(responseMediaType({})).toBe('application/json');
  });

  it('chooses again for each body and route, however often one Accept comes', () => {
    for (let round = 0; round < 3; round++) {
      expect(responseMediaType({ accept: '*/*', 'content-type': 'text/xml' })).toBe('text/xml');
      expect(responseMediaType({ accept: '*/*', 'content-type': 'application/xml' })).toBe('application/xml');
      expect(responseMediaType({ accept: '*/*' })).toBe('application/json');
      expect(prefersPlainText('*/*')).toBe(false);
      expect(prefersPlainText('text/plain, */*;q=0.1')).toBe(true);
      expect(acceptsMediaType('image/*', 'image/png')).toBe(true);
      expect(acceptsMediaType('image/*', 'application/pdf')).toBe(false);
      expect(responseMediaType({ accept: 'image/*' })).toBeUndefined();
    }
  });

  it('answers as before after many different Accept headers, short and long', () => {
    const long = `application/xml;q=0.9, ${'x-unheard/of;q=0.1, '.repeat(40)}text/plain;q=0.1`;
    for (let index = 0; index < 600; index++) {
      expect(responseMediaType({ accept: `application/x-tender-${index}, text/xml;q=0.5` })).toBe('text/xml');
      expect(responseMediaType({ accept: long })).toBe('application/xml');
    }
    expect(responseMediaType({ accept: 'application/json' })).toBe('application/json');
  });
});

describe('XML nesting', () => {
  const nested = (depth: number) =>
    `<transaction>${'<a>'.repeat(depth - 1)}x${'</a>'.repeat(depth - 1)}</transaction>`;

  it('refuses elements deeper than 8 levels with the nesting message, however deep', () => {
    for (const depth of [9, 12, 999, 1000, 5000]) {
      expect(
        problemOf(() => parseBody(nested(depth), 'xml', 'transaction')),
        String(depth),
      ).toBe('400 The body nests deeper than 8 levels.');
    }
    const emptyDeep = `<transaction>${'<a>'.repeat(7)}<b/>${'</a>'.repeat(7)}</transaction>`;
    expect(problemOf(() => parseBody(emptyDeep, 'xml', 'transaction'))).toBe(
      '400 The body nests deeper than 8 levels.',
    );
  });

  it('reads 8 levels, and is not misled by markup in comments, CDATA or attributes', () => {
    expect(problemOf(() => parseBody(nested(8), 'xml', 'transaction'))).toBe('no problem');
    const decoys =
      `<transaction a="b>c/>"><!-- ${'<c>'.repeat(20)} --><invoice><![CDATA[${'<d>'.repeat(20)}]]></invoice>` +
      `${'<e/>'.repeat(20)}</transaction>`;
    expect(problemOf(() => parseBody(decoys, 'xml', 'transaction'))).toBe('no problem');
  });
});

describe('amounts', () => {
  it('documents exactly the amounts the engine reads', () => {
    for (const text of [
      '0.00',
      '0.50',
      '5.00',
      '25.00',
      '999999.99',
      '05.00',
      '00.50',
      '1000000.00',
      '5.0',
      '-1.00',
    ]) {
      expect(AMOUNT_PATTERN.test(text), text).toBe(parseMoney(text, { allowZero: true }).ok);
    }
  });

  it('refuses a leading zero in list amounts and the close’s expected_net_amount', () => {
    expect(transactionListQuerySchema.safeParse({ amount: '05.00' }).success).toBe(false);
    expect(transactionListQuerySchema.safeParse({ amount: '0.50' }).success).toBe(true);
    for (const [text, ok] of [
      ['01.00', false],
      ['-05.00', false],
      ['0.50', true],
      ['-12.00', true],
      ['240.50', true],
    ] as const) {
      expect(closeBatchQuerySchema.safeParse({ expected_net_amount: text }).success, text).toBe(ok);
    }
  });
});
