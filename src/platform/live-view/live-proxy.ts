// Passing a live-view request to the node that runs the camera's stream (docs/deploy.md, Live view on
// several nodes). Only the media playlist and its segments are ever passed, only to the address a node
// recorded with the stream's lease, and the answer is streamed back as it comes: status, body and the
// headers a player needs. The media token goes along unchanged: every node verifies the same keys.
import type { FastifyReply } from 'fastify';
import { request } from 'undici';
import { ApiError } from '../../lib/errors.js';
import { PLAYLIST_FILE, SEGMENT_NAME } from './ffmpeg-args.js';

/** Marks a request one node passed to another, so that it is never passed on again. */
export const FORWARDED_HEADER = 'x-overlook-forwarded';
/** How long the other node may take to answer (its headers), and to send the body. */
const PROXY_HEADERS_TIMEOUT_MS = 5000;
const PROXY_BODY_TIMEOUT_MS = 10_000;

const KEPT_HEADERS = ['content-type', 'content-length', 'cache-control', 'retry-after', 'www-authenticate'] as const;

/** The URL on `nodeUrl` of the camera's live `file` (the media playlist or a segment); anything else is refused. */
export function liveUrl(nodeUrl: string, exid: string, file: string, token: string): URL {
  if (file !== PLAYLIST_FILE && !SEGMENT_NAME.test(file)) throw new ApiError('NOT_FOUND', 'Only the live playlist and its segments are passed to another node');
  let base: URL;
  try {
    base = new URL(nodeUrl);
  } catch {
    throw new ApiError('BAD_GATEWAY', 'The node running the live stream has no usable address');
  }
  if ((base.protocol !== 'http:' && base.protocol !== 'https:') || base.username || base.password || base.search || base.hash) {
    throw new ApiError('BAD_GATEWAY', 'The node running the live stream has no usable address');
  }
  const prefix = base.pathname.replace(/\/+$/, '');
  const url = new URL(`${prefix}/v2/cameras/${encodeURIComponent(exid)}/hls/${file}`, base.origin);
  url.searchParams.set('token', token);
  return url;
}

/** Sends the answer of the node at `nodeUrl` for the camera's live `file` as this request's reply. */
export async function forwardLive(reply: FastifyReply, nodeUrl: string, exid: string, file: string, token: string): Promise<FastifyReply> {
  const url = liveUrl(nodeUrl, exid, file, token);
  let res: Awaited<ReturnType<typeof request>>;
  try {
    res = await request(url, {
      method: 'GET',
      headers: { [FORWARDED_HEADER]: '1' },
      headersTimeout: PROXY_HEADERS_TIMEOUT_MS,
      bodyTimeout: PROXY_BODY_TIMEOUT_MS,
    });
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
      throw new ApiError('GATEWAY_TIMEOUT', 'The node running the live stream did not answer in time');
    }
    throw new ApiError('BAD_GATEWAY', 'The node running the live stream could not be reached');
  }
  reply.code(res.statusCode);
  for (const name of KEPT_HEADERS) {
    const value = res.headers[name];
    if (value !== undefined) reply.header(name, value);
  }
  return reply.send(res.body);
}
