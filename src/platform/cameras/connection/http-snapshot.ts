// A JPEG from a camera's snapshot URL, through urllib (HTTP with digest authentication). Credentials
// are never sent unasked: the first request carries none; a Digest challenge is answered by urllib, a
// Basic challenge with one more request carrying Basic credentials.
import { request } from 'urllib';
import { CameraAnswerError } from '../camera-errors.js';

const MAX_BYTES = 20 * 1024 * 1024;

export interface SnapshotTarget {
  url: string;
  username?: string;
  password?: string;
  timeoutMs: number;
}

export async function fetchSnapshot(target: SnapshotTarget): Promise<Buffer> {
  const userpass = target.username ? `${target.username}:${target.password ?? ''}` : undefined;
  const get = (basic: boolean) =>
    request<Buffer>(target.url, {
      method: 'GET',
      timeout: target.timeoutMs,
      followRedirect: false,
      digestAuth: basic ? undefined : userpass,
      auth: basic ? userpass : undefined,
    });
  let res = await get(false);
  const challenge = String(res.headers['www-authenticate'] ?? '');
  if (res.status === 401 && userpass && /^basic\b/i.test(challenge)) res = await get(true);
  if (res.status === 401)
    throw new CameraAnswerError(userpass ? 'the camera refused the username or password (HTTP 401)' : 'the camera wants a username and password (HTTP 401)');
  if (res.status < 200 || res.status >= 300) throw new CameraAnswerError(`snapshot URL answered HTTP ${res.status}`);
  const type = String(res.headers['content-type'] ?? '');
  if (!type.startsWith('image/')) throw new CameraAnswerError(`snapshot URL answered ${type || 'no content type'}, not an image`);
  const body = Buffer.isBuffer(res.data) ? res.data : Buffer.from(res.data as ArrayBuffer);
  if (body.length === 0) throw new CameraAnswerError('snapshot URL answered an empty image');
  if (body.length > MAX_BYTES) throw new CameraAnswerError('snapshot larger than 20 MB');
  return body;
}
