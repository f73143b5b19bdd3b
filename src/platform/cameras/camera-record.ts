// The camera record as the API shows it (in Evercam's shapes, which clients know). Connection details are
// write-only and never part of it.
import { Type, type Static } from 'typebox';
import { toBool } from '../../lib/db/index.js';
import { Nullable, StringEnum } from '../../lib/http/schemas.js';
import type { CamerasTable } from './cameras-tables.js';

export const CameraRecord = Type.Object(
  {
    exid: Type.String(),
    name: Type.String(),
    kind: StringEnum(['simulated', 'ip', 'linked'], { description: '`linked`: a device of a linked site recorder (docs/site-link.md)' }),
    status: Type.String({ description: 'The connection: waiting, online, offline or recording' }),
    picture_status: StringEnum(['ok', 'fault'], { description: '`fault` while any picture check of its stored frames is in fault (GET …/health lists them)' }),
    timezone: Type.String(),
    location: Nullable(Type.Object({ lat: Type.Number(), lng: Type.Number() })),
    is_public: Type.Boolean(),
    ptz: Type.Boolean(),
    project_exid: Type.String(),
    project: Type.Object({ exid: Type.String(), name: Type.String() }),
    last_online_at: Nullable(Type.String()),
    last_checked_at: Nullable(Type.String()),
    created_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'CameraRecord' },
);
export type CameraRecord = Static<typeof CameraRecord>;

/** A camera row joined with its project's exid and name. */
export type CameraRow = Omit<CamerasTable, 'updated_at'> & { project_exid: string; project_name: string };

export function toCameraRecord(r: CameraRow): CameraRecord {
  const conn = JSON.parse(r.connection) as { onvif_url?: string };
  return {
    exid: r.exid,
    name: r.name,
    kind: r.kind,
    status: r.status,
    picture_status: r.picture_status ?? 'ok',
    timezone: r.timezone,
    location: r.lat !== null && r.lng !== null ? { lat: r.lat, lng: r.lng } : null,
    is_public: toBool(r.is_public),
    // The simulated camera has PTZ; a real one when it has an ONVIF address.
    ptz: r.kind === 'simulated' || !!conn.onvif_url,
    project_exid: r.project_exid,
    project: { exid: r.project_exid, name: r.project_name },
    last_online_at: r.last_online_at,
    last_checked_at: r.last_checked_at,
    created_at: r.created_at,
  };
}
