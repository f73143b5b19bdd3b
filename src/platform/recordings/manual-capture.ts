// "Capture now" (POST /v2/cameras/{camera_exid}/snapshots): fetches a JPEG from the camera at once and
// stores it in the camera's cloud recordings as a `manual` snapshot with an optional note, whatever the
// recording settings say.
import { Type, type Static } from 'typebox';
import { Nullable } from '../../lib/http/schemas.js';
import type { CamerasService, CameraConnections } from '../cameras/index.js';
import type { SnapshotWriter } from './capture.js';

export const CapturedSnapshot = Type.Object(
  {
    camera_exid: Type.String(),
    created_at: Type.String({ description: 'When the frame was taken (ISO 8601 UTC, milliseconds); its key in the recordings' }),
    note: Nullable(Type.String()),
    source: Type.String({ description: '`manual` for captures through this endpoint' }),
    size: Type.Integer({ description: 'Bytes of JPEG' }),
    url: Type.String({ description: 'Where to fetch it: GET recordings/snapshots/{created_at}' }),
  },
  { $id: 'CapturedSnapshot' },
);
export type CapturedSnapshot = Static<typeof CapturedSnapshot>;

export class ManualCapture {
  constructor(
    private readonly cameras: CamerasService,
    private readonly connections: CameraConnections,
    private readonly writer: SnapshotWriter,
    private readonly publicUrl: string,
  ) {}

  async capture(cameraExid: string, userId: string, note: string | null): Promise<CapturedSnapshot> {
    const row = await this.cameras.row(cameraExid);
    const shot = await this.writer.fetch(this.connections.connect(row));
    const stored = await this.writer.store(row.id, shot, { source: 'manual', note, createdBy: userId });
    const createdAt = stored.takenAt.toISOString();
    return {
      camera_exid: row.exid,
      created_at: createdAt,
      note: stored.note,
      source: stored.source,
      size: stored.size,
      url: `${this.publicUrl.replace(/\/+$/, '')}/v2/cameras/${encodeURIComponent(row.exid)}/recordings/snapshots/${createdAt}`,
    };
  }
}
