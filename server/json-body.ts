/**
 * The JSON body parser: Fastify's own (prototype-poisoning checks included),
 * after a linear scan that refuses:
 * - bodies nested deeper than MAX_JSON_DEPTH (400). JSON.parse itself copes
 *   with any depth, but a value nested thousands deep later overflows the stack
 *   of whatever walks it recursively (JSON.stringify when it is stored,
 *   PostgreSQL's jsonb parser), which would be a 500;
 * - strings with the NUL character (`\u0000`, 400): PostgreSQL cannot store it
 *   in text or jsonb, so any field that reaches the database would fail with a
 *   500 (found by tests/server/fuzz-api.test.ts: a log-in with the username "\u0000");
 * - bodies with more values and keys, or more different keys, than the route
 *   allows (413; MAX_JSON_ITEMS and MAX_JSON_KEYS, or the route's
 *   `config.maxJsonItems` and `config.maxJsonKeys`). What JSON.parse makes of a
 *   body costs the heap by its values, not its bytes: 20 to 40 bytes for each
 *   array, object or string however short in the text, so 32 MiB of empty
 *   arrays (`[[],[],…]`) is over 400 MB parsed. Each different key costs more
 *   (a hidden class, or a slot of an object in dictionary mode: 45 to 60 bytes
 *   a value), and no API body has more than a few hundred: bounding both,
 *   before parsing, bounds what a body can cost.
 */
import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors.ts';

/** No API body needs more than a dozen levels (an import's game state is the deepest). */
export const MAX_JSON_DEPTH = 64;

/**
 * Values and keys in a body, unless the route says otherwise: the largest bodies but the import
 * (200 structured orders) have about 3,000.
 */
export const MAX_JSON_ITEMS = 20_000;

/** Different keys in a body, unless the route says otherwise: the schemas' field names, a few dozen. */
export const MAX_JSON_KEYS = 1000;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Values and keys its JSON body may hold (MAX_JSON_ITEMS when not set). */
    maxJsonItems?: number;
    /** Different keys its JSON body may hold (MAX_JSON_KEYS when not set). */
    maxJsonKeys?: number;
  }
}

export type JsonScan = {
  /** The deepest nesting of arrays and objects. */
  depth: number;
  /** Whether a string holds an escaped NUL (`\u0000`). */
  nul: boolean;
  /**
   * Values and keys, about: each `[`, `{`, `,` and `:` outside strings is one (`[]` counts 1, `[1,2]` 2,
   * `{"a":1}` 2 …), the first value of the text not counted.
   */
  items: number;
  /** Different keys (by a hash of their text; one written with escapes counts apart), counted up to `maxKeys` + 1. */
  keys: number;
};

/**
 * What JSON.parse would make of `text`, in one pass and without allocating (keys are told apart by a 32-bit
 * FNV-1a hash of their characters). Brackets inside strings do not count.
 */
export function scanJson(text: string, maxKeys = Infinity): JsonScan {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  let nul = false;
  let items = 0;
  let hash = 0;
  let lastString = 0;
  const keys = new Set<number>();
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) {
        if (text.charCodeAt(i + 1) === 0x75 /* u */ && text.slice(i + 2, i + 6) === '0000') nul = true;
        hash = Math.imul(hash ^ text.charCodeAt(i + 1), 0x01000193);
        i++;
      } else if (c === 0x22 /* " */) {
        inString = false;
        lastString = hash;
      } else {
        hash = Math.imul(hash ^ c, 0x01000193);
      }
    } else if (c === 0x22) {
      inString = true;
      hash = 0x811c9dc5;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      depth++;
      items++;
      if (depth > deepest) deepest = depth;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth--;
    } else if (c === 0x2c /* , */) {
      items++;
    } else if (c === 0x3a /* : */) {
      // The string just closed was a key.
      items++;
      if (keys.size <= maxKeys) keys.add(lastString);
    }
  }
  return { depth: deepest, nul, items, keys: keys.size };
}

export function installJsonParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  // JSON only: Fastify's text/plain parser would let a cross-site form (enctype="text/plain",
  // no CORS preflight) reach the routes; without it such a request is a 415.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    const { maxJsonItems = MAX_JSON_ITEMS, maxJsonKeys = MAX_JSON_KEYS } = request.routeOptions.config;
    const { depth, nul, items, keys } = scanJson(text, maxJsonKeys);
    if (depth > MAX_JSON_DEPTH) {
      done(new HttpError(400, 'bad_request', `body: JSON nested deeper than ${MAX_JSON_DEPTH} levels`), undefined);
      return;
    }
    if (nul) {
      done(new HttpError(400, 'bad_request', 'body: strings may not contain the NUL character (\\u0000)'), undefined);
      return;
    }
    if (items > maxJsonItems) {
      done(new HttpError(413, 'payload_too_large', `body: JSON with more than ${maxJsonItems} values and keys (it has ${items})`), undefined);
      return;
    }
    if (keys > maxJsonKeys) {
      done(new HttpError(413, 'payload_too_large', `body: JSON with more than ${maxJsonKeys} different keys`), undefined);
      return;
    }
    parse(request, text, done);
  });
}
