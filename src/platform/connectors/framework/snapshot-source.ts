// What connectors upload from a camera: a recorded snapshot (the one at or nearest a timestamp, or the
// latest) from the cloud recordings, or a frame taken from the camera now. Shared by every provider
// that uploads images, so they all accept the same `source`/`timestamp` inputs.
import { Type } from 'typebox';
import { StringEnum } from '../../../lib/http/schemas.js';
import type { ConnectorHost } from './connector-host.js';

export const SnapshotSourceFields = {
  source: Type.Optional(StringEnum(['recorded', 'live'], { description: 'recorded (default): from the cloud recordings; live: a frame from the camera now' })),
  timestamp: Type.Optional(
    Type.String({ minLength: 1, maxLength: 40, description: 'Recorded: the snapshot nearest this time (ISO-8601); default the latest' }),
  ),
};

export interface CameraImage {
  jpeg: Buffer;
  takenAt: string;
  /** `<camera>-<time>.jpg`, safe for any provider's file names. */
  fileName: string;
}

export async function cameraImage(
  platform: Pick<ConnectorHost, 'liveView' | 'snapshotReader'>,
  cameraExid: string,
  opts: { source?: 'recorded' | 'live'; timestamp?: string },
): Promise<CameraImage> {
  let jpeg: Buffer;
  let takenAt: string;
  if (opts.source === 'live') {
    const shot = await platform.liveView.snapshot(cameraExid);
    jpeg = shot.jpeg;
    takenAt = new Date(shot.takenAt).toISOString();
  } else {
    const entry = opts.timestamp ? await platform.snapshotReader.nearest(cameraExid, opts.timestamp) : await platform.snapshotReader.latest(cameraExid);
    jpeg = await platform.snapshotReader.bytes(entry);
    takenAt = entry.takenAt;
  }
  const stamp = takenAt.replace(/\.\d+Z$/, 'Z').replace(/[-:]/g, '');
  return { jpeg, takenAt, fileName: `${cameraExid}-${stamp}.jpg` };
}
