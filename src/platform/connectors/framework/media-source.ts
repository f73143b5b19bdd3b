// What connectors upload from the media hub: the stored file of a completed item (a clip's or
// timelapse's MP4, a compare's MP4, an uploaded file) of the project the route allowed, read into
// memory within a size limit (providers take a body with a length).
import type { Readable } from 'node:stream';
import { ApiError } from '../../../lib/errors.js';
import type { ProjectRef } from '../../access/index.js';
import type { ConnectorHost } from './connector-host.js';

/** Largest media-hub file a connector sends in one request. */
const MEDIA_UPLOAD_MAX_BYTES = 200 * 1024 * 1024;

export interface MediaFile {
  bytes: Buffer;
  contentType: string;
  fileName: string;
}

export async function mediaItemFile(platform: Pick<ConnectorHost, 'mediaHub'>, project: ProjectRef, itemId: string): Promise<MediaFile> {
  // 404 unless the item belongs to this project; 409 while it is still rendering.
  const item = await platform.mediaHub.get(project, itemId);
  const f = await platform.mediaHub.file(item.id);
  if (f.size > MEDIA_UPLOAD_MAX_BYTES) {
    f.body.destroy();
    throw new ApiError('PAYLOAD_TOO_LARGE', `The media file is larger than ${MEDIA_UPLOAD_MAX_BYTES} bytes`);
  }
  const bytes = await readAll(f.body);
  const fileName = f.fileName.replace(/[^A-Za-z0-9._ -]/g, '_').slice(0, 200) || `${item.id}`;
  return { bytes, contentType: f.contentType, fileName };
}

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c as Uint8Array));
  return Buffer.concat(chunks);
}
