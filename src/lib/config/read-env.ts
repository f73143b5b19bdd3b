// Validates the variables one service reads against their schemas (env-schema.ts), once at startup:
// numbers are coerced, defaults filled in, and a bad value stops the service with a message that names
// the variable and the value, as before the schemas existed.
import envSchema from 'env-schema';
import { Ajv, type ErrorObject } from 'ajv';
import type { Static, TObject, TSchema } from 'typebox';
import { Value } from 'typebox/value';
import type { Env } from './process-env.js';

// env-schema's Ajv settings, plus the `defaultText` annotation the catalogue uses. One instance, so each
// schema is compiled once however many configs a test run builds. strictNumbers off: with it, Ajv skips
// the range keywords for a non-finite number, so a coerced `Infinity` would pass positive()'s maximum.
const ajv = new Ajv({
  strictNumbers: false,
  allErrors: true,
  removeAdditional: true,
  useDefaults: true,
  coerceTypes: true,
  allowUnionTypes: true,
  addUsedSchema: false,
  keywords: [{ keyword: 'defaultText', schemaType: 'string' }],
});

/** The schema's variables from `env`, typed; an empty value counts as unset where the schema refuses it. */
export function readEnv<T extends TObject>(schema: T, env: Env): Static<T> {
  const data: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    const s: TSchema | undefined = schema.properties[name];
    if (value === undefined || (value === '' && s && !Value.Check(s, ''))) continue;
    data[name] = value;
  }
  try {
    return envSchema<Static<T>>({ schema, data, env: false, ajv });
  } catch (err) {
    throw explain(err, schema, env);
  }
}

function explain(err: unknown, schema: TObject, env: Env): unknown {
  const first = (err as { errors?: ErrorObject[] }).errors?.[0];
  const name = first?.instancePath.slice(1);
  const s = name ? (schema.properties[name] as { type?: unknown; enum?: unknown[]; minimum?: number; maximum?: number } | undefined) : undefined;
  if (!first || !name || !s) return err;
  const raw = env[name];
  // A number is either positive() or has a range.
  if (s.type === 'number' && s.minimum !== undefined && s.maximum !== undefined)
    return new Error(`${name} must be a number from ${s.minimum} to ${s.maximum}, got ${raw}`);
  if (s.type === 'number') return new Error(`${name} must be a positive number, got ${raw}`);
  if (s.enum) return new Error(`${name} must be ${s.enum.join(' or ')}, got ${raw}`);
  return new Error(`${name} ${first.message}, got ${raw}`);
}
