import { describe, expect, it } from 'vitest';
import { parseBody, responseFormat, serialize } from '../../electron/gateway/http/formats';
import { normalizeFields } from '../../electron/gateway/request-fields';
import { problemOf } from '../support/api-problems';

describe('choosing the answer format', () => {
  it('follows Accept, then the request body format, then JSON', () => {
    expect(responseFormat({ accept: 'application/xml' })).toBe('xml');
    expect(responseFormat({ 'content-type': 'application/xml' })).toBe('xml');
    expect(responseFormat({ accept: '*/*', 'content-type': 'text/xml; charset=utf-8' })).toBe('xml');
    expect(responseFormat({})).toBe('json');
    expect(responseFormat({ accept: 'application/xml;q=0.5, application/json' })).toBe('json');
  });

  it('finds no format when Accept allows neither', () => {
    expect(responseFormat({ accept: 'text/html' })).toBeUndefined();
  });
});

describe('reading XML bodies', () => {
  it('keeps numbers as the exact text sent and decodes the predefined entities', () => {
    const body = parseBody(
      '<?xml version="1.0"?><transaction><amount>025.00</amount><invoice>A&amp;B &#65;</invoice><billing><zip>02134</zip></billing></transaction>',
      'xml',
      'transaction',
    );
    expect(body).toEqual({ amount: '025.00', invoice: 'A&B A', billing: { zip: '02134' } });
  });

  it('refuses a DOCTYPE, so no entity is ever expanded', () => {
    const bomb =
      '<!DOCTYPE t [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;">]><transaction><type>&b;</type></transaction>';
    expect(problemOf(() => parseBody(bomb, 'xml', 'transaction'))).toMatch(/^400 .*DOCTYPE/);
  });

  it('refuses malformed XML and a wrong root element', () => {
    expect(problemOf(() => parseBody('<transaction><type>SALE</transaction>', 'xml', 'transaction'))).toMatch(
      /^400/,
    );
    expect(problemOf(() => parseBody('<batch><type>SALE</type></batch>', 'xml', 'transaction'))).toMatch(
      /<transaction>/,
    );
  });

  it('an empty element means the field is absent', () => {
    expect(parseBody('<transaction><invoice/><billing/></transaction>', 'xml', 'transaction')).toEqual({});
  });
});

describe('reading JSON bodies', () => {
  it('refuses anything but one object', () => {
    expect(problemOf(() => parseBody('[1]', 'json', 'transaction'))).toMatch(/^400/);
    expect(problemOf(() => parseBody('{"type":', 'json', 'transaction'))).toMatch(
      /^400 The body is not valid JSON/,
    );
    expect(problemOf(() => parseBody('', 'json', 'transaction'))).toMatch(/empty/);
  });

  it('says where a body broke without quoting any of it', () => {
    const card = '4111111111111111';
    const broken: [string, 'json' | 'xml'][] = [
      [`{"card": x${card}}`, 'json'],
      [`{"card": "${card}",}`, 'json'],
      [`{"card": ${card} 5}`, 'json'],
      [`<transaction><card>${card}</card><${card}/></transaction>`, 'xml'],
      [`<transaction><card>${card}</c${card}></transaction>`, 'xml'],
    ];
    for (const [body, format] of broken) {
      const problem = problemOf(() => parseBody(body, format, 'transaction'));
      expect(problem).toMatch(/^400 The body is not (valid JSON|well-formed XML)/);
      expect(problem).not.toMatch(/4111|1111/);
    }
    expect(problemOf(() => parseBody(`{"card": "${card}",}`, 'json', 'transaction'))).toBe(
      '400 The body is not valid JSON (at character 29).',
    );
  });

  it('treats blank and null fields as absent, in nested objects too', () => {
    expect(normalizeFields({ invoice: '  ', email: null, type: ' SALE ', billing: { zip: '' } })).toEqual({
      type: 'SALE',
      billing: {},
    });
  });
});

describe('writing answers', () => {
  it('escapes XML text and wraps lists in their plural root', () => {
    expect(serialize('xml', 'transaction', { display_message: 'a < b & "c"' })).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><transaction><display_message>a &lt; b &amp; &quot;c&quot;</display_message></transaction>',
    );
    expect(serialize('xml', 'batches', [{ id: '1' }, { id: '2' }], 'batch')).toContain(
      '<batches><batch><id>1</id></batch><batch><id>2</id></batch></batches>',
    );
    expect(serialize('json', 'batches', [])).toBe('[]');
  });
});
