// Content negotiation for the endpoints that answer one image as JSON (a data URI or a record) or as
// the image itself. JSON stays the default: a client sending no Accept, or `*/*`, gets JSON.
import Negotiator from 'negotiator';
import type { FastifyRequest } from 'fastify';

/** True when the Accept header prefers `imageType` (or image/*) to JSON. */
export function prefersImage(req: FastifyRequest, imageType: string): boolean {
  if (!req.headers.accept) return false;
  return new Negotiator({ headers: { accept: req.headers.accept } }).mediaType(['application/json', imageType]) === imageType;
}

/** True when the caller asks for the bytes: `?view=true`, or an Accept header preferring image/jpeg (or image/*) to JSON. */
export function wantsJpeg(req: FastifyRequest, view?: boolean): boolean {
  return view === true || prefersImage(req, 'image/jpeg');
}
