// Bits the media routes share: the stream query parameter, the caller's token for playlist URIs,
// and a device that must exist.
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { StringEnum } from '../../lib/http/schemas.js';

export const StreamQuery = { stream: Type.Optional(StringEnum(['main', 'sub'], { description: 'Default main' })) };
export const TokenQuery = { token: Type.Optional(Type.String({ maxLength: 200, description: 'The access token, for players that cannot send headers' })) };

/** The token this request was authorised with (header or `?token=`), to carry into playlist URIs. */
export function callerToken(req: FastifyRequest): string {
  const h = req.headers.authorization;
  const m = typeof h === 'string' ? /^Bearer\s+(\S+)$/i.exec(h.trim()) : null;
  return m?.[1] ?? String((req.query as { token?: string }).token ?? '');
}

export function isoParam(v: string | undefined): Date | undefined {
  if (v === undefined) return undefined;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? new Date(NaN) : d;
}

/** A binary response (file or image) in the OpenAPI document; sent as a stream or buffer, not serialised. */
export const Binary = (mediaType: string) => Type.Unsafe<Buffer | NodeJS.ReadableStream>({ type: 'string', format: 'binary', description: mediaType });
