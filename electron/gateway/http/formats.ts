/**
 * JSON and XML, chosen per request: the body is read by its Content-Type, the answer is written in
 * the format Accept asks for, or, when Accept leaves it open, the format the request was sent in.
 */
import Negotiator from 'negotiator';
import { XMLBuilder, XMLParser, XMLValidator } from 'fast-xml-parser';
import { ApiProblem, problems, quoted } from './problems';

export type Format = 'json' | 'xml';

/** The media types the API reads and writes; XML answers are labelled as the client asked for them. */
export type MediaType = 'application/json' | 'application/xml' | 'text/xml';

const MEDIA_TYPES: Record<Format, MediaType> = { json: 'application/json', xml: 'application/xml' };

export function mediaTypeOf(format: Format): MediaType {
  return MEDIA_TYPES[format];
}

export function formatOfMediaType(mediaType: MediaType): Format {
  return mediaType === 'application/json' ? 'json' : 'xml';
}

export function contentTypeOf(mediaType: MediaType): string {
  return `${mediaType}; charset=utf-8`;
}

/** The media type a Content-Type names, or undefined for anything else. */
function mediaTypeOfContentType(contentType: string | undefined): MediaType | undefined {
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
  return mediaType === 'application/json' || mediaType === 'application/xml' || mediaType === 'text/xml'
    ? mediaType
    : undefined;
}

/** The format a Content-Type names, or undefined for anything else. */
export function formatOfContentType(contentType: string | undefined): Format | undefined {
  const mediaType = mediaTypeOfContentType(contentType);
  return mediaType && formatOfMediaType(mediaType);
}

/**
 * The answer's media type, or undefined when Accept allows none (406). XML is text/xml when that is
 * what Accept chose (text/xml itself, or text/*), or when the body came as text/xml and Accept
 * leaves it open; application/xml otherwise.
 */
export function responseMediaType(headers: {
  accept?: string;
  'content-type'?: string;
}): MediaType | undefined {
  const sent = mediaTypeOfContentType(headers['content-type']) ?? 'application/json';
  if (!headers.accept?.trim()) return sent;
  const preference: MediaType[] =
    sent === 'text/xml'
      ? ['text/xml', 'application/xml', 'application/json']
      : sent === 'application/xml'
        ? ['application/xml', 'text/xml', 'application/json']
        : ['application/json', 'application/xml', 'text/xml'];
  return negotiated(headers.accept, preference) as MediaType | undefined;
}

/** The answer's format, or undefined when Accept allows neither (406). */
export function responseFormat(headers: { accept?: string; 'content-type'?: string }): Format | undefined {
  const mediaType = responseMediaType(headers);
  return mediaType && formatOfMediaType(mediaType);
}

// A byte order mark stays the text's first character (ignoreBOM), so a body is parsed exactly as sent.
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

const UTF8_CHARSET = /^utf-?8$/i;
// US-ASCII's characters are UTF-8's first 128, byte for byte: a body labelled so is read as UTF-8
// once every byte is below 0x80, which a client that only ever sends ASCII may well label it.
const ASCII_CHARSET = /^(us-)?ascii$/i;

/**
 * A request body's bytes as text. Only UTF-8 is read, and US-ASCII as the part of it that it is: a
 * Content-Type naming another charset, or a Content-Encoding (a compressed body), is refused (415)
 * before a byte is decoded, and bytes that are not of the charset named are refused (400) rather
 * than read as U+FFFD, which would keep a name or an address as something the client never sent.
 */
export function decodeBody(bytes: Buffer, contentType: string | undefined, contentEncoding?: string): string {
  // A compressed body would be read as bytes that are no text at all; say what was sent instead.
  if (contentEncoding !== undefined && contentEncoding.trim().toLowerCase() !== 'identity') {
    throw new ApiProblem(
      415,
      'unsupported_media_type',
      `Content-Encoding "${quoted(contentEncoding)}" is not read: send the body uncompressed, without Content-Encoding.`,
    );
  }
  const charset = charsetOf(contentType);
  if (charset !== undefined && ASCII_CHARSET.test(charset)) {
    const at = bytes.findIndex((byte) => byte >= 0x80);
    if (at !== -1) {
      const byte = bytes[at]?.toString(16).toUpperCase() ?? '';
      throw problems.badRequest(
        `The body is not US-ASCII, as its Content-Type says: byte ${at + 1} is 0x${byte}, and ` +
          'US-ASCII has only bytes below 0x80. Send the body as UTF-8 with charset=utf-8.',
      );
    }
  } else if (charset !== undefined && !UTF8_CHARSET.test(charset)) {
    throw new ApiProblem(
      415,
      'unsupported_media_type',
      `Content-Type "${quoted(contentType ?? '')}" names the charset ${quoted(charset)}. Send the body as UTF-8 ` +
        '(charset=utf-8, or no charset); US-ASCII (charset=us-ascii) is read as the part of UTF-8 it is.',
    );
  }
  try {
    return UTF8.decode(bytes);
  } catch {
    throw problems.badRequest(
      'The body is not valid UTF-8: a byte sequence in it is no UTF-8 character (such as é sent as ' +
        'the single Latin-1 byte E9). Send the body as UTF-8.',
    );
  }
}

/**
 * The charset parameter of a Content-Type, or undefined when there is none. A quoted value is
 * unquoted and its backslash escapes undone (RFC 9110, 5.6.4), so "utf-8" and "utf\-8" are utf-8.
 */
function charsetOf(contentType: string | undefined): string | undefined {
  for (const parameter of contentType?.split(';').slice(1) ?? []) {
    const [name, ...value] = parameter.split('=');
    if (name?.trim().toLowerCase() === 'charset') {
      const text = value.join('=').trim();
      const quoted = /^"(.*)"$/.exec(text);
      return quoted ? (quoted[1] ?? '').replace(/\\(.)/g, '$1') : text;
    }
  }
  return undefined;
}

/**
 * Whether Accept prefers text/plain to JSON and XML, for the routes that can also answer as text.
 * Accept absent or allowing anything keeps JSON: text is given only to a client that asks for text,
 * and `text/*` is the text itself (XML to a client that names it).
 */
export function prefersPlainText(accept: string | undefined): boolean {
  if (!accept?.trim()) return false;
  return negotiated(accept, PLAIN_TEXT_CHOICES) === 'text/plain';
}

/** Whether Accept allows a picture of this media type: absent, any, image/* or the type itself. */
export function acceptsMediaType(accept: string | undefined, mediaType: string): boolean {
  if (!accept?.trim()) return true;
  return negotiated(accept, [mediaType]) !== undefined;
}

const PLAIN_TEXT_CHOICES = ['application/json', 'application/xml', 'text/plain', 'text/xml'];

/**
 * Accept headers already negotiated, with what each chose among the types offered: a client sends
 * the same Accept with every request. Only ordinary ones are kept, and all are forgotten at once when
 * there are many, so that a client sending ever new ones costs a negotiation each and no more memory.
 */
const NEGOTIATED = new Map<string, string | undefined>();
const NEGOTIATED_LIMIT = { entries: 256, acceptLength: 256 } as const;

/** The type Accept prefers among `offered` (in the server's order of preference), or undefined. */
function negotiated(accept: string, offered: readonly string[]): string | undefined {
  const key = `${offered.join(',')}\n${accept}`;
  if (NEGOTIATED.has(key)) return NEGOTIATED.get(key);
  const chosen = new Negotiator({ headers: { accept: withoutMediaParameters(accept) } }).mediaType([
    ...offered,
  ]);
  if (accept.length <= NEGOTIATED_LIMIT.acceptLength) {
    if (NEGOTIATED.size >= NEGOTIATED_LIMIT.entries) NEGOTIATED.clear();
    NEGOTIATED.set(key, chosen);
  }
  return chosen;
}

/**
 * Drops media-type parameters other than q: "application/json; charset=utf-8" asks for JSON, and
 * Negotiator would otherwise insist on matching the charset too.
 */
function withoutMediaParameters(accept: string): string {
  return accept
    .split(',')
    .map((range) => {
      const [type, ...parameters] = range.split(';');
      const quality = parameters.find((parameter) => /^\s*q\s*=/i.test(parameter));
      return quality ? `${type};${quality}` : (type ?? '');
    })
    .join(',');
}

const PROTOTYPE_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

const xmlParser = new XMLParser({
  ignoreAttributes: true,
  // Numbers stay the exact text sent: "025.00" must not become 25.
  parseTagValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  // Only the predefined XML entities and character references; a DOCTYPE never reaches the parser.
  processEntities: true,
  htmlEntities: true,
  // The parser refuses these names outright, as guarded against prototype pollution: renamed to
  // what no XML name can be, they are unknown elements like any other, and ignored as in JSON.
  transformTagName: (name) => (PROTOTYPE_NAMES.has(name) ? `#${name}` : name),
});

const xmlBuilder = new XMLBuilder({ format: false, suppressEmptyNode: false });

/** The characters XML 1.0 allows (its Char production); a reference to any other is not XML. */
function isXmlCharacter(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}

const PREDEFINED_ENTITIES = new Set(['lt', 'gt', 'amp', 'quot', 'apos']);

/**
 * Where the XML refers to something XML does not define, outside CDATA sections and comments: a
 * named entity other than the five predefined (there is no DTD to define more, so `&nbsp;` is not
 * XML), or a character reference to a character XML does not allow (`&#0;`, `&#x1B;`). The parser
 * would keep the first as text and drop the second, reading the body as something it does not say.
 */
function strayReference(raw: string): { line: number; column: number } | undefined {
  // Blanked, not removed, so that positions stay those of the body.
  const text = raw.replace(/<!\[CDATA\[[\s\S]*?\]\]>|<!--[\s\S]*?-->/g, (literal) =>
    ' '.repeat(literal.length),
  );
  for (const match of text.matchAll(/&(#x[0-9A-Fa-f]+|#\d+|[^;&<\s]*);/g)) {
    const name = match[1] ?? '';
    const code = name.startsWith('#x')
      ? Number.parseInt(name.slice(2), 16)
      : name.startsWith('#')
        ? Number(name.slice(1))
        : undefined;
    if (code === undefined ? PREDEFINED_ENTITIES.has(name) : isXmlCharacter(code)) continue;
    const before = raw.slice(0, match.index);
    return { line: before.split('\n').length, column: match.index - before.lastIndexOf('\n') };
  }
  return undefined;
}

/** Reads a request body into a plain object whose root is `rootName` (XML) or the JSON object. */
export function parseBody(raw: string, format: Format, rootName: string): Record<string, unknown> {
  if (!raw.trim()) throw problems.badRequest('The request body is empty.');
  if (format === 'json') {
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      // Where it broke, never the parser's own text: that quotes the body, card number and all.
      const position = /at position (\d+)/.exec((error as Error).message)?.[1];
      const where = position === undefined ? '' : ` (at character ${Number(position) + 1})`;
      throw problems.badRequest(`The body is not valid JSON${where}.`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw problems.badRequest('The body must be one JSON object.');
    }
    if (nestsTooDeep(value))
      throw problems.badRequest(`The body nests deeper than ${MAX_BODY_DEPTH} levels.`);
    return value as Record<string, unknown>;
  }
  if (/<!DOCTYPE|<!ENTITY/i.test(raw)) {
    throw problems.badRequest('XML with a DOCTYPE or entity declarations is not accepted.');
  }
  // As with JSON, the answer says where the XML broke, not the validator's text, which quotes names
  // and values from the body.
  const verdict = XMLValidator.validate(raw);
  if (verdict !== true) {
    throw problems.badRequest(
      `The body is not well-formed XML (line ${verdict.err.line}, column ${verdict.err.col}).`,
    );
  }
  const stray = strayReference(raw);
  if (stray) {
    throw problems.badRequest(
      `The body is not well-formed XML (line ${stray.line}, column ${stray.column}): a reference ` +
        'names no entity XML defines, or a character XML does not allow. Only &lt; &gt; &amp; ' +
        '&quot; &apos; and references to characters XML allows are read.',
    );
  }
  const encoding = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([^"']*)["']/.exec(raw)?.[1];
  if (encoding !== undefined && ASCII_CHARSET.test(encoding)) {
    // Declared as the Content-Type's charset is: read as UTF-8 while every character is ASCII.
    if (/[^\p{ASCII}]/u.test(raw)) {
      throw problems.badRequest(
        'The body declares the encoding US-ASCII but holds a character that is not ASCII. Send XML as UTF-8.',
      );
    }
  } else if (encoding !== undefined && !UTF8_CHARSET.test(encoding)) {
    throw problems.badRequest('The body declares an encoding other than UTF-8. Send XML as UTF-8.');
  }
  // Counted before parsing: the parser gives up on deep nesting with a failure of its own, which
  // would call a well-formed body malformed.
  if (elementsNestTooDeep(raw))
    throw problems.badRequest(`The body nests deeper than ${MAX_BODY_DEPTH} levels.`);
  let document: Record<string, unknown>;
  try {
    document = xmlParser.parse(raw) as Record<string, unknown>;
  } catch {
    throw problems.badRequest('The body is not well-formed XML.');
  }
  if (nestsTooDeep(document))
    throw problems.badRequest(`The body nests deeper than ${MAX_BODY_DEPTH} levels.`);
  const roots = Object.keys(document);
  if (roots.length !== 1 || roots[0] !== rootName) {
    throw problems.badRequest(`The XML root element must be <${rootName}>.`);
  }
  const root = document[rootName];
  if (root === '') return {};
  if (Array.isArray(root)) throw problems.badRequest(`The body must hold one <${rootName}> element.`);
  if (typeof root !== 'object' || root === null) {
    throw problems.badRequest(`<${rootName}> must hold child elements, one per field.`);
  }
  return emptyElementsAsAbsent(root as Record<string, unknown>);
}

/** `<billing/>` parses as "", which means "no billing object", not a text value. */
function emptyElementsAsAbsent(element: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(element)
      .filter(([, value]) => value !== '')
      .map(([key, value]) => [
        key,
        typeof value === 'object' && value !== null && !Array.isArray(value)
          ? emptyElementsAsAbsent(value as Record<string, unknown>)
          : value,
      ]),
  );
}

/** A transaction nests two levels (billing, shipping); anything much deeper is not a transaction. */
export const MAX_BODY_DEPTH = 8;

/** True when a parsed body nests deeper than MAX_BODY_DEPTH; walked without recursion. */
function nestsTooDeep(value: unknown): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop() as [unknown, number];
    if (typeof current !== 'object' || current === null) continue;
    if (depth >= MAX_BODY_DEPTH) return true;
    for (const child of Object.values(current)) pending.push([child, depth + 1]);
  }
  return false;
}

/**
 * True when elements of well-formed XML nest deeper than MAX_BODY_DEPTH, the root element counting as
 * the first level: the same bodies nestsTooDeep finds in what the parser makes of them, where the
 * deepest element is text and its parent the deepest object.
 */
function elementsNestTooDeep(raw: string): boolean {
  const markup = raw.replace(/<!\[CDATA\[[\s\S]*?\]\]>|<!--[\s\S]*?-->|<\?[\s\S]*?\?>/g, '');
  let depth = 0;
  for (const [tag] of markup.matchAll(/<\/?[^\s/>!?](?:"[^"]*"|'[^']*'|[^"'>])*>/g)) {
    if (tag.startsWith('</')) depth -= 1;
    else if (!tag.endsWith('/>')) depth += 1;
    else if (depth + 1 > MAX_BODY_DEPTH) return true;
    if (depth > MAX_BODY_DEPTH) return true;
  }
  return false;
}

/** Writes one resource (`root` element) or a list (`root` holding `item` elements). */
export function serialize(format: Format, root: string, payload: object | object[], item?: string): string {
  if (format === 'json') return JSON.stringify(payload);
  const body = Array.isArray(payload)
    ? { [root]: payload.length ? { [item ?? 'item']: payload } : '' }
    : { [root]: payload };
  return `<?xml version="1.0" encoding="UTF-8"?>${xmlBuilder.build(body) as string}`;
}
