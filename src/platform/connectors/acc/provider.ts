// Autodesk Construction Cloud (ACC / BIM 360 through Autodesk Platform Services): browse the person's
// hubs, projects, top folders and subfolders, upload a camera's snapshot into a folder as a new file,
// (or a media hub file of the camera's project), and hand out a short-lived viewer token for the APS Viewer.
//
// Upstream (APS, https://aps.autodesk.com; JSON:API bodies, `application/vnd.api+json`):
//   OAuth  GET /authentication/v2/authorize, POST /authentication/v2/token (HTTP Basic), POST /authentication/v2/revoke
//   GET  /userprofile/v1/users/@me                                       who we are
//   GET  /project/v1/hubs                                                hubs (ACC accounts)
//   GET  /project/v1/hubs/{hub}/projects                                 a hub's projects
//   GET  /project/v1/hubs/{hub}/projects/{project}/topFolders            a project's top folders
//   GET  /data/v1/projects/{project}/folders/{folder}/contents?filter[type]=folders   subfolders
//   Upload: POST /data/v1/projects/{project}/storage → object id (bucket/object);
//           GET  /oss/v2/buckets/{bucket}/objects/{object}/signeds3upload → signed URL(s) + uploadKey;
//           PUT  <signed URL> (the JPEG); POST same signeds3upload {uploadKey} to finish;
//           POST /data/v1/projects/{project}/items (item + first version pointing at the object)
//   Viewer token: POST /authentication/v2/token grant_type=client_credentials scope=viewables:read
import { Type } from 'typebox';
import { ApiError, validation } from '../../../lib/errors.js';
import { scoped } from '../../access/index.js';
import { actingUserId } from '../../http/index.js';
import { cameraImage, SnapshotSourceFields } from '../framework/snapshot-source.js';
import { mediaItemFile } from '../framework/media-source.js';
import { connectorErrors } from '../framework/routes.js';
import type { ConnectorApp, ConnectorContext, ConnectorProvider } from '../framework/provider.js';
import { RemoteId } from '../framework/common-schemas.js';
import { uploadRoute } from '../framework/upload-route.js';

interface JsonApiResource {
  type: string;
  id: string;
  attributes?: Record<string, unknown> & { name?: string; displayName?: string; extension?: { type?: string } };
  links?: { webView?: { href?: string } };
}
interface JsonApiDoc {
  data: JsonApiResource | JsonApiResource[];
  included?: JsonApiResource[];
}

const JSON_API = 'application/vnd.api+json';
const Node = Type.Object({
  id: Type.String(),
  name: Type.String(),
  type: Type.String({ description: 'The ACC extension type, e.g. hubs:autodesk.bim360:Account' }),
});
const HubParams = Type.Object({ hub_id: RemoteId });
const HubProjectParams = Type.Object({ hub_id: RemoteId, project_id: RemoteId });
const FolderParams = Type.Object({ hub_id: RemoteId, project_id: RemoteId, folder_id: RemoteId });
const UploadBody = Type.Object(
  {
    hub_id: RemoteId,
    project_id: RemoteId,
    folder_id: RemoteId,
    file_name: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        pattern: '^[^/\\\\<>:"|?*]+\\.[A-Za-z0-9]{1,8}$',
        description: 'Name of the new file; default <camera>-<time>.jpg, or the media file’s name',
      }),
    ),
    media_item_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: 'Upload this media hub item’s file (of the camera’s project) instead of a snapshot' }),
    ),
    ...SnapshotSourceFields,
  },
  { additionalProperties: false },
);
const UploadReply = Type.Object({
  id: Type.String({ description: 'The Overlook record of this upload' }),
  item_id: Type.String(),
  version_id: Type.Union([Type.String(), Type.Null()]),
  storage_id: Type.String(),
  web_view_url: Type.Union([Type.String(), Type.Null()]),
  file_name: Type.String(),
  taken_at: Type.Union([Type.String(), Type.Null()], { description: 'When the snapshot was taken; null for a media hub file' }),
});
const ViewerToken = Type.Object({
  access_token: Type.String(),
  token_type: Type.Literal('Bearer'),
  expires_at: Type.Union([Type.String(), Type.Null()]),
  scopes: Type.Array(Type.String()),
});

const list = (doc: JsonApiDoc): JsonApiResource[] => (Array.isArray(doc?.data) ? doc.data : []);
const node = (r: JsonApiResource) => ({
  id: r.id,
  name: String(r.attributes?.displayName ?? r.attributes?.name ?? r.id),
  type: String(r.attributes?.extension?.type ?? r.type),
});
const seg = encodeURIComponent;

/** `urn:adsk.objects:os.object:wip.dm.prod/abc.jpg` → bucket `wip.dm.prod`, object `abc.jpg`. */
function storageLocation(id: string): { bucket: string; object: string } {
  const m = /^urn:adsk\.objects:os\.object:([^/]+)\/(.+)$/.exec(id);
  if (!m) throw new ApiError('BAD_GATEWAY', `Autodesk returned a storage id this client does not understand: ${id.slice(0, 120)}`);
  return { bucket: m[1]!, object: m[2]! };
}

const VIEWER_SCOPES = ['viewables:read'];

function routes(app: ConnectorApp, ctx: ConnectorContext): void {
  const { client, prefix, tags, provider } = ctx;
  const browse = scoped(['project:connectors']);
  const op = provider.operationPrefix;

  app.get(
    `${prefix}/hubs`,
    {
      config: { access: browse },
      schema: {
        tags,
        operationId: `${op}ListHubs`,
        summary: 'Your Autodesk hubs (ACC and BIM 360 accounts)',
        response: { 200: Type.Array(Node), ...connectorErrors() },
      },
    },
    async (req) => list(await client.request<JsonApiDoc>(actingUserId(req), { path: '/project/v1/hubs' })).map(node),
  );

  app.get(
    `${prefix}/hubs/:hub_id/projects`,
    {
      config: { access: browse },
      schema: {
        tags,
        operationId: `${op}ListProjects`,
        summary: 'Projects of an Autodesk hub',
        params: HubParams,
        response: { 200: Type.Array(Node), ...connectorErrors() },
      },
    },
    async (req) => list(await client.request<JsonApiDoc>(actingUserId(req), { path: `/project/v1/hubs/${seg(req.params.hub_id)}/projects` })).map(node),
  );

  app.get(
    `${prefix}/hubs/:hub_id/projects/:project_id/folders`,
    {
      config: { access: browse },
      schema: {
        tags,
        operationId: `${op}ListTopFolders`,
        summary: 'Top folders of an Autodesk project (Project Files, Plans…)',
        params: HubProjectParams,
        response: { 200: Type.Array(Node), ...connectorErrors() },
      },
    },
    async (req) => {
      const { hub_id, project_id } = req.params;
      return list(await client.request<JsonApiDoc>(actingUserId(req), { path: `/project/v1/hubs/${seg(hub_id)}/projects/${seg(project_id)}/topFolders` })).map(
        node,
      );
    },
  );

  app.get(
    `${prefix}/hubs/:hub_id/projects/:project_id/folders/:folder_id/subfolders`,
    {
      config: { access: browse },
      schema: {
        tags,
        operationId: `${op}ListSubfolders`,
        summary: 'Folders inside an Autodesk folder',
        params: FolderParams,
        response: { 200: Type.Array(Node), ...connectorErrors() },
      },
    },
    async (req) => {
      const { project_id, folder_id } = req.params;
      const doc = await client.request<JsonApiDoc>(actingUserId(req), {
        path: `/data/v1/projects/${seg(project_id)}/folders/${seg(folder_id)}/contents`,
        query: { 'filter[type]': 'folders' },
      });
      return list(doc)
        .filter((r) => r.type === 'folders')
        .map(node);
    },
  );

  uploadRoute(app, ctx, {
    path: 'uploads',
    operation: 'UploadSnapshot',
    summary: "Upload a camera's snapshot (recorded or live), or a media hub file of its project, into an Autodesk folder as a new file",
    body: UploadBody,
    reply: UploadReply,
    check: (b) => {
      if (b.media_item_id && (b.source || b.timestamp))
        throw validation('media_item_id', 'upload either a media hub item or a snapshot (source/timestamp), not both');
    },
    upload: async ({ userId, project, cameraExid, body: b }) => {
      const file = b.media_item_id
        ? { ...(await mediaItemFile(ctx.host, project, b.media_item_id)), takenAt: null as string | null }
        : await cameraImage(ctx.host, cameraExid, { source: b.source, timestamp: b.timestamp }).then((i) => ({
            bytes: i.jpeg,
            contentType: 'image/jpeg',
            fileName: i.fileName,
            takenAt: i.takenAt as string | null,
          }));
      const name = b.file_name ?? file.fileName;
      const dm = `/data/v1/projects/${seg(b.project_id)}`;
      // 1. A storage object in the target folder.
      const storage = await client.request<JsonApiDoc>(userId, {
        method: 'POST',
        path: `${dm}/storage`,
        contentType: JSON_API,
        json: {
          jsonapi: { version: '1.0' },
          data: { type: 'objects', attributes: { name }, relationships: { target: { data: { type: 'folders', id: b.folder_id } } } },
        },
      });
      const storageId = (storage?.data as JsonApiResource | undefined)?.id;
      if (!storageId) throw new ApiError('BAD_GATEWAY', 'Autodesk did not create a storage object');
      const { bucket, object } = storageLocation(storageId);
      const oss = `/oss/v2/buckets/${seg(bucket)}/objects/${seg(object)}/signeds3upload`;
      // 2–4. The bytes go straight to the signed URL, then the upload is completed.
      const signed = await client.request<{ uploadKey?: string; urls?: string[] }>(userId, { path: oss });
      const target = signed?.urls?.[0];
      if (!signed?.uploadKey || !target || !/^https?:\/\//.test(target)) throw new ApiError('BAD_GATEWAY', 'Autodesk gave no signed upload URL');
      await client.request(userId, { method: 'PUT', path: target, body: file.bytes, contentType: file.contentType, anonymous: true, responseType: 'none' });
      await client.request(userId, { method: 'POST', path: oss, json: { uploadKey: signed.uploadKey } });
      // 5. The item and its first version in the folder.
      const ext = (kind: 'items' | 'versions') => ({ type: `${kind}:autodesk.bim360:File`, version: '1.0' });
      const item = await client.request<JsonApiDoc>(userId, {
        method: 'POST',
        path: `${dm}/items`,
        contentType: JSON_API,
        json: {
          jsonapi: { version: '1.0' },
          data: {
            type: 'items',
            attributes: { displayName: name, extension: ext('items') },
            relationships: { tip: { data: { type: 'versions', id: '1' } }, parent: { data: { type: 'folders', id: b.folder_id } } },
          },
          included: [
            {
              type: 'versions',
              id: '1',
              attributes: { name, extension: ext('versions') },
              relationships: { storage: { data: { type: 'objects', id: storageId } } },
            },
          ],
        },
      });
      const created = item?.data as JsonApiResource | undefined;
      if (!created?.id) throw new ApiError('BAD_GATEWAY', 'Autodesk did not create the item');
      const itemId = created.id;
      const versionId = item.included?.find((r) => r.type === 'versions')?.id ?? null;
      const webView = created.links?.webView?.href ?? null;
      return {
        remoteProjectId: b.project_id,
        remoteId: itemId,
        name,
        details: {
          hub_id: b.hub_id,
          folder_id: b.folder_id,
          version_id: versionId,
          storage_id: storageId,
          web_view_url: webView,
          taken_at: file.takenAt,
          media_item_id: b.media_item_id ?? null,
        },
        reply: (id) => ({ id, item_id: itemId, version_id: versionId, storage_id: storageId, web_view_url: webView, file_name: name, taken_at: file.takenAt }),
      };
    },
  });

  app.get(
    `${prefix}/viewer-token`,
    {
      config: { access: browse },
      schema: {
        tags,
        operationId: `${op}ViewerToken`,
        summary: 'A short-lived read-only token (viewables:read) for the Autodesk Viewer',
        response: { 200: ViewerToken, ...connectorErrors() },
      },
    },
    async (req) => {
      // Only for people who connected Autodesk; the token itself is the app's, limited to viewing.
      await client.connection(actingUserId(req));
      const t = await client.appToken(VIEWER_SCOPES);
      return { access_token: t.accessToken, token_type: 'Bearer' as const, expires_at: t.expiresAt, scopes: VIEWER_SCOPES };
    },
  );
}

export const acc: ConnectorProvider = {
  id: 'acc',
  name: 'Autodesk Construction Cloud',
  operationPrefix: 'acc',
  authKind: 'oauth',
  defaultUrls: { api: 'https://developer.api.autodesk.com' },
  oauth: {
    authorizePath: '/authentication/v2/authorize',
    tokenPath: '/authentication/v2/token',
    revokePath: '/authentication/v2/revoke',
    scopes: ['data:read', 'data:write', 'data:create', 'account:read', 'user-profile:read'],
    pkce: true,
    clientAuth: 'basic',
  },
  describeAccount: async (client, userId) => {
    const me = await client.request<{ userId?: string; userName?: string; emailId?: string; firstName?: string; lastName?: string }>(userId, {
      path: '/userprofile/v1/users/@me',
    });
    return {
      user_id: me.userId ?? null,
      user_name: me.userName ?? null,
      email: me.emailId ?? null,
      name: [me.firstName, me.lastName].filter(Boolean).join(' ') || null,
    };
  },
  routes,
};
