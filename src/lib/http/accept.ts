// Content negotiation for the endpoints that answer one image as JSON (a data URI) or as the JPEG
// itself. JSON stays the default: a client sending no Accept, or `*/*`, gets JSON.
import Negotiator from 'negotiator';
import type { FastifyRequest } from 'fastify';

const OFFERED = ['application/json', 'image/jpeg'];

/** True when the caller asks for the bytes: `?view=true`, or an Accept header preferring image/jpeg (or image/*) to JSON. */
export function wantsJpeg(req: FastifyRequest, view?: boolean): boolean {
  if (view) return true;
  if (!req.headers.accept) return false;
  return new Negotiator({ headers: { accept: req.headers.accept } }).mediaType(OFFERED) === 'image/jpeg';
}
