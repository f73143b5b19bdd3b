// A JPEG from a camera's snapshot URL, through urllib (HTTP with digest authentication). Credentials
// are never sent unasked: the first request carries none; a Digest challenge is answered by urllib, a
// Basic challenge with one more request carrying Basic credentials. Connections go through the outbound
// guard's dispatcher (only to allowed addresses, to the address checked) and redirects are not followed;
// only a real JPEG is passed on, whatever the content type says (docs/security.md, Outbound connections).
import type { Dispatcher } from 'undici';
import { request } from 'urllib';
import { CameraAnswerError } from '../camera-errors.js';

const MAX_BYTES = 20 * 1024 * 1024;

const NOT_A_JPEG = 'snapshot URL answered something that is not a JPEG';

export interface SnapshotTarget {
  url: string;
  username?: string;
  password?: string;
  timeoutMs: number;
  /** The outbound guard's dispatcher. */
  dispatcher: Dispatcher;
}

/** JPEG files start with an SOI marker followed by another marker. */
const isJpeg = (b: Buffer): boolean => b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;

export async function fetchSnapshot(target: SnapshotTarget): Promise<Buffer> {
  const userpass = target.username ? `${target.username}:${target.password ?? ''}` : undefined;
  const get = (basic: boolean) =>
    request<Buffer>(target.url, {
      method: 'GET',
      timeout: target.timeoutMs,
      followRedirect: false,
      dispatcher: target.dispatcher as never,
      digestAuth: basic ? undefined : userpass,
      auth: basic ? userpass : undefined,
    });
  let res = await get(false);
  const challenge = String(res.headers['www-authenticate'] ?? '');
  if (res.status === 401 && userpass && /^basic\b/i.test(challenge)) res = await get(true);
  if (res.status === 401)
    throw new CameraAnswerError(userpass ? 'the camera refused the username or password (HTTP 401)' : 'the camera wants a username and password (HTTP 401)');
  if (res.status < 200 || res.status >= 300) throw new CameraAnswerError(`snapshot URL answered HTTP ${res.status}`);
  // One fixed reason for anything that is not a JPEG: repeating the other side's content type would make
  // the connection check a service fingerprinter inside an opted-in network (docs/security.md).
  const type = String(res.headers['content-type'] ?? '');
  const body = Buffer.isBuffer(res.data) ? res.data : Buffer.from(res.data as ArrayBuffer);
  if (body.length > MAX_BYTES) throw new CameraAnswerError('snapshot larger than 20 MB');
  if (!type.startsWith('image/') || !isJpeg(body)) throw new CameraAnswerError(NOT_A_JPEG);
  return body;
}
