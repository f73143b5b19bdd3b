// Request validation: bodies are checked strictly (a number is not a string, no silent coercion),
// while path and query parameters, which arrive as text, are coerced to the declared types.
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.js';
import { byContent } from './compiled-schemas.js';

// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({ coerceTypes: coerce ? 'array' : false, useDefaults: true, removeAdditional: false, allErrors: false, strict: false });
  addFormats(ajv);
  return ajv;
}

// One pair per process, each schema compiled once, on a route's first request (compiled-schemas.ts).
const strict = makeAjv(false);
const lenient = makeAjv(true);
const validators = byContent<ValidateFunction>();

/** What Fastify calls to validate a request part: true or false, with Ajv's errors when false. */
type Validate = ((data: unknown) => boolean) & { errors?: ValidateFunction['errors'] };

/**
 * A validator compiled on its first call. Fastify hands Ajv's own functions the request as the root
 * value's parent, so that Ajv can replace a coerced root; roots here are never coerced (bodies are
 * not, and the coerced parts, path, query and headers, are objects), so the value is enough.
 */
export function compiledOnFirstCall(compile: () => ValidateFunction): Validate {
  let compiled: ValidateFunction | undefined;
  const validate: Validate = (data) => {
    compiled ??= compile();
    const valid = compiled(data);
    validate.errors = compiled.errors;
    return valid;
  };
  return validate;
}

export function installValidators(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? strict : lenient;
    return compiledOnFirstCall(() => validators([ajv === strict, schema], () => ajv.compile(schema)));
  });
}

// PostgreSQL text cannot hold a NUL character and no field of ours needs one: refuse it up front,
// before the access layer looks ids up, so it is a 400 on both databases instead of a driver error.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding NUL is this pattern's purpose.
const NUL_IN_URL = /%00|\u0000/i;

function holdsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 32 || value === null || typeof value !== 'object') return false;
  for (const v of Array.isArray(value) ? value : Object.values(value as Record<string, unknown>)) {
    if (holdsNul(v, depth + 1)) return true;
  }
  return false;
}

/** Longest request target (path and query) any route needs; Node itself refuses past its 16 KiB header limit. */
const MAX_URL_LENGTH = 8192;

/** Why a request target is refused before anything else looks at it (too long, a NUL), or undefined. */
export function urlRefusal(url: string): ApiError | undefined {
  if (url.length > MAX_URL_LENGTH) return new ApiError('URI_TOO_LONG', `The address is longer than ${MAX_URL_LENGTH} characters`);
  if (NUL_IN_URL.test(url)) return new ApiError('VALIDATION_ERROR', 'The address holds a NUL character');
  return undefined;
}

/**
 * The body half of the NUL guard (the address half is `urlRefusal`, run in the app's one onRequest
 * hook, base-app.ts). A callback hook, not an async one: it runs on every request, and a promise per
 * hook costs more than the check.
 */
export function installNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', (req, _reply, done) => {
    if (holdsNul(req.body)) return done(new ApiError('VALIDATION_ERROR', 'body: a text field holds a NUL character'));
    done();
  });
}
