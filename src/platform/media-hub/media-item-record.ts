// The media hub item as the API shows it (Evercam's shapes): exid, title, type,
// status, camera_exid, from/to dates, requester_email, media_url, thumbnail_url, public; plus the
// render options, the failure reason and, per kind, the link or the uploaded file's details.
import { Type, type Static } from 'typebox';
import { toBool } from '../../lib/db/index.js';
import { KINDS, STATUSES, type Kind, type MediaHubItemsTable, type Status } from './media-hub-tables.js';
import { Nullable, StringEnum } from '../../lib/http/schemas.js';

export const MediaItem = Type.Object(
  {
    id: Type.String(),
    exid: Type.String({ description: 'The same as id (Evercam calls it exid)' }),
    title: Type.String(),
    type: StringEnum(KINDS),
    status: StringEnum(STATUSES),
    project_exid: Type.String(),
    camera_exid: Nullable(Type.String()),
    from_date: Nullable(Type.String({ format: 'date-time' })),
    to_date: Nullable(Type.String({ format: 'date-time' })),
    requester_email: Type.String(),
    media_url: Nullable(Type.String({ description: 'The rendered MP4 or uploaded file (the link itself for url items); null until completed' })),
    gif_url: Nullable(Type.String({ description: 'Compares: the animated GIF' })),
    thumbnail_url: Nullable(Type.String()),
    public: Type.Boolean(),
    options: Type.Record(Type.String(), Type.Unknown(), { description: 'Render options (duration, schedule, size, overlays, compare dates)' }),
    error: Nullable(Type.String({ description: 'Why the last render failed' })),
    attempts: Type.Integer({ description: 'Render attempts so far' }),
    file_name: Nullable(Type.String()),
    content_type: Nullable(Type.String()),
    file_size: Nullable(Type.Integer()),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    completed_at: Nullable(Type.String({ format: 'date-time' })),
  },
  { $id: 'MediaHubItem' },
);
export type MediaItem = Static<typeof MediaItem>;

export type ItemRow = MediaHubItemsTable & { project_exid: string; camera_exid: string | null };

export function toMediaItem(r: ItemRow, publicUrl: string): MediaItem {
  const base = `${publicUrl.replace(/\/$/, '')}/v2/media-hub/${r.id}`;
  const done = r.status === 'completed';
  return {
    id: r.id,
    exid: r.id,
    title: r.title,
    type: r.kind as Kind,
    status: r.status as Status,
    project_exid: r.project_exid,
    camera_exid: r.camera_exid,
    from_date: r.from_date,
    to_date: r.to_date,
    requester_email: r.requester_email,
    media_url: r.kind === 'url' ? r.link_url : done && r.object_key ? `${base}/file` : null,
    gif_url: done && r.gif_key ? `${base}/file?format=gif` : null,
    thumbnail_url: r.thumbnail_key ? `${base}/thumbnail` : null,
    public: toBool(r.is_public),
    options: JSON.parse(r.options) as Record<string, unknown>,
    error: r.error,
    attempts: Number(r.attempts),
    file_name: r.file_name,
    content_type: r.content_type,
    file_size: r.file_size === null ? null : Number(r.file_size),
    created_at: r.created_at,
    updated_at: r.updated_at,
    completed_at: r.completed_at,
  };
}
