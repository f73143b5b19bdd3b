// Schemas and small helpers every connector's routes share: path parameters of Overlook projects and
// cameras, ids of things on the provider's side, paging, and the list of uploads made to a provider.
import { Type } from 'typebox';
import type { ConnectorStore } from './connector-store.js';

export const ProjectParams = Type.Object({ exid: Type.String({ minLength: 1, maxLength: 64 }) });
export const CameraParams = Type.Object({ camera_exid: Type.String({ minLength: 1, maxLength: 64 }) });
/** An id on the provider's side (numbers, `b.uuid`, URNs): no slashes, nothing that could leave the path segment. */
export const RemoteId = Type.String({ minLength: 1, maxLength: 256, pattern: '^[A-Za-z0-9._:~=-]+$' });
export const PageQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
});

const UploadRecord = Type.Object({
  id: Type.String(),
  provider: Type.String(),
  project_exid: Type.String(),
  camera_exid: Type.Union([Type.String(), Type.Null()]),
  remote_project_id: Type.String(),
  remote_id: Type.String({ description: 'The id the provider gave the uploaded item' }),
  name: Type.String(),
  details: Type.Record(Type.String(), Type.Unknown()),
  uploaded_by: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
});
export const UploadList = Type.Object({ items: Type.Array(UploadRecord), total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() });

export async function uploadsPage(
  store: ConnectorStore,
  provider: string,
  projectId: string,
  q: { limit?: number; offset?: number },
  remoteProjectId?: string,
) {
  const limit = q.limit ?? 50;
  const offset = q.offset ?? 0;
  const { items, total } = await store.listUploads(provider, projectId, { limit, offset, remoteProjectId });
  return { items, total, limit, offset };
}
