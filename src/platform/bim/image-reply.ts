// The BIM endpoints that answer one record as JSON or as its image: `?format=image` (for <img> tags and
// links) or an Accept header preferring the image's type (or image/*) to JSON. JSON stays the default
// (no Accept, or */*). The image is the uploaded file, byte for byte, with its own content type.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { prefersImage } from '../../lib/http/accept.js';
import type { StoredObject } from '../storage/index.js';

export function wantsImage(req: FastifyRequest, contentType: string, format?: 'json' | 'image'): boolean {
  if (format) return format === 'image';
  return prefersImage(req, contentType);
}

/** Streams the image; `etag` names these bytes, so `If-None-Match` answers 304 without reading them. */
export async function sendImage(req: FastifyRequest, reply: FastifyReply, etag: string, load: () => Promise<StoredObject>): Promise<FastifyReply> {
  reply.header('etag', etag).header('cache-control', 'private, no-cache').header('vary', 'accept');
  const inm = req.headers['if-none-match'];
  if (inm?.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) return reply.code(304).send();
  const object = await load();
  return reply.type(object.contentType).header('content-length', object.size).send(object.body);
}
