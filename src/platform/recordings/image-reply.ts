// How the recordings endpoints answer with one frame: the JPEG itself (small frames from memory, larger ones streamed from the object store)
// or JSON with the image as a data URI (Evercam's shape), with the frame time and caching headers.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SnapshotEntry } from './snapshot-index.js';
import { wantsJpeg } from '../../lib/http/accept.js';
import type { SnapshotReader } from './snapshot-reader.js';

/**
 * `immutable`: the URL names one stored frame (by its time), whose bytes never change.
 * `revalidate`: the URL names "the latest / oldest / nearest", which moves as frames come and go.
 */
export type FrameCaching = 'immutable' | 'revalidate';

const CACHE_CONTROL: Record<FrameCaching, string> = {
  immutable: 'private, max-age=31536000, immutable',
  revalidate: 'private, no-cache',
};

/** Same frame and representation → same tag, so `If-None-Match` answers 304 without reading the object. */
const etagOf = (entry: SnapshotEntry, kind: 'jpeg' | 'json' | 'thumb') => `"${kind}-${Date.parse(entry.takenAt).toString(36)}-${entry.size.toString(36)}"`;

function notModified(req: FastifyRequest, etag: string): boolean {
  const inm = req.headers['if-none-match'];
  return !!inm && inm.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

function frameHeaders(reply: FastifyReply, entry: SnapshotEntry, caching: FrameCaching, etag: string): void {
  reply
    .header('x-snapshot-date', entry.takenAt)
    .header('last-modified', new Date(entry.takenAt).toUTCString())
    .header('etag', etag)
    .header('cache-control', CACHE_CONTROL[caching])
    .header('vary', 'accept');
}

export async function sendFrame(
  req: FastifyRequest,
  reply: FastifyReply,
  reader: SnapshotReader,
  entry: SnapshotEntry,
  opts: { view?: boolean; caching: FrameCaching },
): Promise<FastifyReply> {
  const jpeg = wantsJpeg(req, opts.view);
  const etag = etagOf(entry, jpeg ? 'jpeg' : 'json');
  frameHeaders(reply, entry, opts.caching, etag);
  if (notModified(req, etag)) return reply.code(304).send();
  if (jpeg) {
    const object = await reader.jpeg(entry);
    if (Buffer.isBuffer(object)) return reply.type('image/jpeg').send(object);
    return reply.type('image/jpeg').header('content-length', object.size).send(object.body);
  }
  const bytes = await reader.bytes(entry);
  return reply.type('application/json; charset=utf-8').send({
    created_at: entry.takenAt,
    data: `data:image/jpeg;base64,${bytes.toString('base64')}`,
    source: entry.source,
    note: entry.note,
  });
}

export function sendThumbnail(req: FastifyRequest, reply: FastifyReply, entry: SnapshotEntry, jpeg: Buffer): FastifyReply {
  const etag = etagOf(entry, 'thumb');
  frameHeaders(reply, entry, 'revalidate', etag);
  if (notModified(req, etag)) return reply.code(304).send();
  return reply.type('image/jpeg').header('content-length', jpeg.length).send(jpeg);
}
