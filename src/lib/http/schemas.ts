// Schemas shared by every service's routes: the error body on every error status, and common shapes.
import { Type, type Static, type TSchema } from 'typebox';

export const ErrorResponse = Type.Object(
  {
    code: Type.String({ description: 'Stable error code, e.g. INSUFFICIENT_SCOPE' }),
    message: Type.String({ description: 'A human sentence' }),
    details: Type.Optional(Type.Unknown()),
    request_id: Type.Optional(Type.String({ description: 'The request’s id, as in the `x-request-id` response header: quote it when reporting a problem' })),
  },
  // Every field an error body carries is listed: the serializer drops properties a schema does not name.
  { $id: 'ErrorResponse', description: 'Error' },
);

const ErrorRef = Type.Unsafe<{ code: string; message: string; details?: unknown; request_id?: string }>({ $ref: 'ErrorResponse#' });

/** Error responses to spread into a route's `response`: the statuses any authenticated route can answer. */
export const errorResponses = (...statuses: number[]): Record<number, TSchema> =>
  Object.fromEntries([400, 401, 403, 404, 413, 429, ...statuses].map((s) => [s, ErrorRef]));

export const Timestamp = Type.String({ format: 'date-time' });

/**
 * `T | null` as `type: [T, "null"]` rather than `anyOf`: the response serializer handles a type list
 * directly, while `anyOf` makes it validate each branch at run time.
 */
export function Nullable<T extends TSchema>(schema: T) {
  const s = schema as unknown as { type?: string };
  if (typeof s.type !== 'string') throw new Error('Nullable() takes a schema with a single type');
  return Type.Unsafe<Static<T> | null>({ ...(schema as object), type: [s.type, 'null'] });
}

/** A string restricted to a few values, as one `enum` (cheaper to serialise than a union of literals). */
export const StringEnum = <const V extends string>(values: readonly V[], options: { description?: string } = {}) =>
  Type.Unsafe<V>({ type: 'string', enum: [...values], ...options });
