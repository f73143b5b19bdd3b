// Where segments live: <root>/<device>/<stream>/YYYY/MM/DD/HH/<start µs>.ts (UTC), and the staging
// folder ffmpeg writes into before a finished segment is moved into place and indexed, and the live folder.
import { join } from 'node:path';

export const STREAMS = ['main', 'sub'] as const;

export function segmentRelPath(deviceId: string, stream: string, start: Date): string {
  const iso = start.toISOString();
  const [y, m, d, h] = [iso.slice(0, 4), iso.slice(5, 7), iso.slice(8, 10), iso.slice(11, 13)];
  return join(deviceId, stream, y, m, d, h, `${start.getTime() * 1000}.ts`);
}

export const stagingDir = (root: string, deviceId: string, stream: string, runId: string) => join(root, deviceId, stream, '.incoming', runId);
export const stagingRoot = (root: string, deviceId: string, stream: string) => join(root, deviceId, stream, '.incoming');
/** The live HLS output of a running ffmpeg: a rolling playlist and its short segments, deleted as they roll. */
export const liveDir = (root: string, deviceId: string, stream: string) => join(root, deviceId, stream, '.live');
