/**
 * The JSON body parser: Fastify's own (prototype-poisoning checks included),
 * after a linear scan that refuses, with a 400 naming the reason:
 * - bodies nested deeper than MAX_JSON_DEPTH. JSON.parse itself copes with any
 *   depth, but a value nested thousands deep later overflows the stack of
 *   whatever walks it recursively (JSON.stringify when it is stored,
 *   PostgreSQL's jsonb parser), which would be a 500;
 * - strings with the NUL character (`\u0000`): PostgreSQL cannot store it in
 *   text or jsonb, so any field that reaches the database would fail with a 500
 *   (found by tests/server/fuzz-api.test.ts: a log-in with the username "\u0000").
 */
import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors.ts';

/** No API body needs more than a dozen levels (an import's game state is the deepest). */
export const MAX_JSON_DEPTH = 64;

/**
 * The deepest nesting of arrays and objects in JSON text (brackets inside strings
 * do not count), and whether a string holds an escaped NUL (`\u0000`).
 */
export function scanJson(text: string): { depth: number; nul: boolean } {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  let nul = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) {
        if (text.charCodeAt(i + 1) === 0x75 /* u */ && text.slice(i + 2, i + 6) === '0000') nul = true;
        i++;
      } else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth--;
    }
  }
  return { depth: deepest, nul };
}

export function installJsonParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  // JSON only: Fastify's text/plain parser would let a cross-site form (enctype="text/plain",
  // no CORS preflight) reach the routes; without it such a request is a 415.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    const { depth, nul } = scanJson(text);
    if (depth > MAX_JSON_DEPTH) {
      done(new HttpError(400, 'bad_request', `body: JSON nested deeper than ${MAX_JSON_DEPTH} levels`), undefined);
      return;
    }
    if (nul) {
      done(new HttpError(400, 'bad_request', 'body: strings may not contain the NUL character (\\u0000)'), undefined);
      return;
    }
    parse(request, text, done);
  });
}
