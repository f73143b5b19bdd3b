// JSON bodies nested deeper than any of our schemas needs are refused with 400 before they are parsed:
// a deep body costs every recursive walk after it (validation, serialisation, the NUL guard) and can
// exhaust the stack. The depth is counted on the raw text in one pass, without recursion.
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.js';

const MAX_JSON_DEPTH = 32;

/** The deepest nesting of objects and arrays in a JSON text (strings are skipped). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) max = Math.max(max, ++depth);
    else if (c === 0x7d || c === 0x5d) depth--;
  }
  return max;
}

/** Replaces the JSON parser with Fastify's own behind a depth check. */
export function installJsonDepthLimit(app: FastifyInstance, maxDepth = MAX_JSON_DEPTH): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (jsonDepth(body as string) > maxDepth) {
      done(
        new ApiError('VALIDATION_ERROR', `body: nested deeper than ${maxDepth} levels`, {
          details: [{ field: 'body', message: `nested deeper than ${maxDepth} levels` }],
        }),
        undefined,
      );
      return;
    }
    // Fastify's default parser answers through `done`; its type also allows a promise-returning parser.
    void parse(req, body as string, done);
  });
}
