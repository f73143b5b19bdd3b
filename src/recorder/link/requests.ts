// Answers the platform's requests: a snapshot, the live playlist or one live segment of a shared
// device, recording or not (asking starts its live stream: live-frames.ts). Nothing else can be asked: the platform cannot change anything on the recorder, and a device
// kept out (share_with_platform false) or unknown is a 404, the same answer for both.
import { MAX_PAYLOAD_BYTES, type FromPlatform } from '../../lib/site-link/protocol.js';
import type { DevicesService } from '../devices/index.js';
import type { LiveFrames } from './live-frames.js';

type Request = Extract<FromPlatform, { type: 'request' }>;

export interface Answer {
  status: number;
  contentType?: string;
  message?: string;
  body?: Buffer;
}

export async function answerRequest(req: Request, deps: { devices: DevicesService; live: LiveFrames }): Promise<Answer> {
  const answer = await answerOf(req, deps);
  // The other end refuses a larger message and would close the whole link over one answer.
  if (answer.body && answer.body.length > MAX_PAYLOAD_BYTES) return { status: 413, message: `The answer is larger than ${MAX_PAYLOAD_BYTES} bytes` };
  return answer;
}

async function answerOf(req: Request, deps: { devices: DevicesService; live: LiveFrames }): Promise<Answer> {
  const device = (await deps.devices.exists(req.device_id)) ? await deps.devices.get(req.device_id) : null;
  if (!device?.share_with_platform) return { status: 404, message: 'No such device on this recorder' };
  if (req.what === 'snapshot') {
    const jpeg = await deps.live.jpeg(device.id);
    return jpeg ? { status: 200, contentType: 'image/jpeg', body: jpeg } : { status: 503, message: 'The device has no picture now (not streaming)' };
  }
  if (req.what === 'live_playlist') {
    const list = await deps.live.playlist(device.id);
    if (list) return { status: 200, contentType: 'application/vnd.apple.mpegurl', body: Buffer.from(list) };
    const failure = deps.live.failure(device.id);
    return { status: 404, message: failure ? `No live picture: ${failure}` : 'No live picture: the device is not streaming now (starting, stopped or failed)' };
  }
  const bytes = req.name ? await deps.live.segment(device.id, req.name) : null;
  return bytes
    ? { status: 200, contentType: 'video/mp2t', body: bytes }
    : { status: 404, message: 'Live segment not found (it has rolled out of the live window)' };
}
