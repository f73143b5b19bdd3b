// Bits the media routes share: the stream query parameter, the caller's token for playlist URIs,
// and a device that must exist.
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { validation } from '../../lib/errors.js';
import { StringEnum } from '../../lib/http/schemas.js';
import { parseRfc3339 } from '../../lib/time/read-time.js';

export const StreamQuery = { stream: Type.Optional(StringEnum(['main', 'sub'], { description: 'Default main' })) };
export const TokenQuery = { token: Type.Optional(Type.String({ maxLength: 200, description: 'The access token, for players that cannot send headers' })) };

/** The token this request was authorised with (header or `?token=`), to carry into playlist URIs. */
export function callerToken(req: FastifyRequest): string {
  const h = req.headers.authorization;
  const m = typeof h === 'string' ? /^Bearer\s+(\S+)$/i.exec(h.trim()) : null;
  return m?.[1] ?? String((req.query as { token?: string }).token ?? '');
}

/** A client's time: undefined when absent, an invalid Date when it is not a strict RFC 3339 date-time. */
export function isoParam(v: string | undefined): Date | undefined {
  if (v === undefined) return undefined;
  return parseRfc3339(v) ?? new Date(NaN);
}

/** A client's time as an instant, or a 400 naming the field (strict RFC 3339: `2026-02-30` and `12/25/2026` are refused). */
export function timeParam(field: string, v: unknown): Date {
  const d = typeof v === 'string' ? parseRfc3339(v) : null;
  if (!d) throw validation(field, 'must be an RFC 3339 date-time, e.g. 2026-05-01T08:00:00Z');
  return d;
}

/** A binary response (file or image) in the OpenAPI document; sent as a stream or buffer, not serialised. */
export const Binary = (mediaType: string) => Type.Unsafe<Buffer | NodeJS.ReadableStream>({ type: 'string', format: 'binary', description: mediaType });
