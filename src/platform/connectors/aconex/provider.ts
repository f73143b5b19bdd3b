// Oracle Aconex (document control): browse the person's Aconex projects and a project's document
// register schema, register a camera's snapshot as a document with the register's fields (checked
// against the schema before anything is sent), and list the documents registered from an Overlook project.
//
// Upstream (Aconex REST API, XML bodies; OAuth 2.0 through Oracle's construction identity service):
//   OAuth  GET {auth}/auth/authorize, POST {auth}/auth/token (HTTP Basic, PKCE), POST {auth}/auth/revoke
//   GET  /api/user                                   who we are (<User>)
//   GET  /api/projects                               the projects the user is in (<ProjectResults>)
//   GET  /api/projects/{project}/register/schema     the register's upload fields (<RegisterSchema>)
//   POST /api/projects/{project}/register            multipart: `document` (<Document> metadata XML)
//                                                    and `file` (the JPEG) → <RegisterDocument>
import { Type } from 'typebox';
import { fromPathProject, scoped } from '../../access/index.js';
import { actingUserId, allowedProject } from '../../http/index.js';
import { cameraImage, SnapshotSourceFields } from '../framework/snapshot-source.js';
import { connectorErrors } from '../framework/routes.js';
import type { ConnectorApp, ConnectorContext, ConnectorProvider, ProviderClient } from '../framework/index.js';
import { PageQuery, ProjectParams, RemoteId, UploadList, uploadsPage } from '../framework/common-schemas.js';
import { uploadRoute } from '../framework/upload-route.js';
import { documentXml, parseProjects, parseRegisteredDocument, parseSchema, resolveFields } from './register-schema.js';

const XML = { responseType: 'text' as const, headers: { accept: 'application/vnd.aconex.projects.v1+xml, application/xml' } };
const seg = encodeURIComponent;

const RemoteProject = Type.Object({ id: Type.String(), name: Type.String(), short_name: Type.Union([Type.String(), Type.Null()]) });
const SchemaFieldOut = Type.Object({
  identifier: Type.String({ description: 'The key to use in `fields` when uploading' }),
  name: Type.String(),
  mandatory: Type.Boolean(),
  data_type: Type.String(),
  values: Type.Union([Type.Array(Type.Object({ id: Type.String(), value: Type.String() })), Type.Null()], {
    description: 'Allowed values (id or text accepted); null: free text',
  }),
});
const UploadBody = Type.Object(
  {
    project_id: RemoteId,
    fields: Type.Optional(
      Type.Record(Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_]{0,63}$' }), Type.String({ maxLength: 500 }), {
        description: 'Register fields by identifier (see register-schema); Title, DocumentNumber and FileName default from the snapshot',
        maxProperties: 100,
      }),
    ),
    ...SnapshotSourceFields,
  },
  { additionalProperties: false },
);
const UploadReply = Type.Object({
  id: Type.String({ description: 'The Overlook record of this upload' }),
  document_id: Type.String(),
  document_number: Type.Union([Type.String(), Type.Null()]),
  revision: Type.Union([Type.String(), Type.Null()]),
  aconex_project_id: Type.String(),
  file_name: Type.String(),
  taken_at: Type.String(),
});

const schemaOf = async (client: ProviderClient, userId: string, projectId: string) =>
  parseSchema(await client.request<string>(userId, { path: `/api/projects/${seg(projectId)}/register/schema`, ...XML }));

function routes(app: ConnectorApp, ctx: ConnectorContext): void {
  const { client, prefix, tags, provider, store } = ctx;
  const browse = scoped(['project:connectors']);
  const op = provider.operationPrefix;

  app.get(
    `${prefix}/remote-projects`,
    {
      config: { access: browse },
      schema: { tags, operationId: `${op}ListProjects`, summary: 'Your Aconex projects', response: { 200: Type.Array(RemoteProject), ...connectorErrors() } },
    },
    async (req) => parseProjects(await client.request<string>(actingUserId(req), { path: '/api/projects', ...XML })),
  );

  app.get(
    `${prefix}/remote-projects/:project_id/register-schema`,
    {
      config: { access: browse },
      schema: {
        tags,
        operationId: `${op}RegisterSchema`,
        summary: "The fields of an Aconex project's document register (what an upload must fill in)",
        params: Type.Object({ project_id: RemoteId }),
        response: { 200: Type.Array(SchemaFieldOut), ...connectorErrors() },
      },
    },
    async (req) => schemaOf(client, actingUserId(req), req.params.project_id),
  );

  uploadRoute(app, ctx, {
    path: 'documents',
    operation: 'UploadDocument',
    summary: "Register a camera's snapshot as a document in an Aconex project, with the register's fields",
    body: UploadBody,
    reply: UploadReply,
    upload: async ({ userId, cameraExid, body: b }) => {
      const image = await cameraImage(ctx.host, cameraExid, { source: b.source, timestamp: b.timestamp });
      const schema = await schemaOf(client, userId, b.project_id);
      const stem = image.fileName.replace(/\.jpg$/, '');
      const fields = resolveFields(schema, b.fields ?? {}, {
        Title: `${cameraExid} snapshot ${image.takenAt}`,
        DocumentNumber: stem.toUpperCase(),
        FileName: image.fileName,
      });
      const form = new FormData();
      form.set('document', new Blob([documentXml(fields)], { type: 'application/xml' }), 'document.xml');
      form.set('file', new Blob([new Uint8Array(image.jpeg)], { type: 'image/jpeg' }), image.fileName);
      const registered = parseRegisteredDocument(
        await client.request<string>(userId, { method: 'POST', path: `/api/projects/${seg(b.project_id)}/register`, form, ...XML }),
      );
      const sent = Object.fromEntries(fields);
      return {
        remoteProjectId: b.project_id,
        remoteId: registered.id,
        name: sent.Title ?? image.fileName,
        details: { document_number: registered.document_number, revision: registered.revision, fields: sent, taken_at: image.takenAt },
        reply: (id) => ({
          id,
          document_id: registered.id,
          document_number: registered.document_number,
          revision: registered.revision,
          aconex_project_id: b.project_id,
          file_name: image.fileName,
          taken_at: image.takenAt,
        }),
      };
    },
  });

  app.get(
    `${prefix}/projects/:exid/documents`,
    {
      config: { access: scoped(['project:connectors'], { project: fromPathProject, role: 'viewer' }) },
      schema: {
        tags,
        operationId: `${op}ListDocuments`,
        summary: 'Documents registered in Aconex from this project, newest first',
        params: ProjectParams,
        querystring: Type.Intersect([PageQuery, Type.Object({ aconex_project_id: Type.Optional(RemoteId) })]),
        response: { 200: UploadList, ...connectorErrors() },
      },
    },
    async (req) => uploadsPage(store, provider.id, allowedProject(req).project.id, req.query, req.query.aconex_project_id),
  );
}

export const aconex: ConnectorProvider = {
  id: 'aconex',
  name: 'Oracle Aconex',
  operationPrefix: 'aconex',
  authKind: 'oauth',
  defaultUrls: { api: 'https://api.aconex.com', auth: 'https://constructionandengineering.oraclecloud.com' },
  oauth: { authorizePath: '/auth/authorize', tokenPath: '/auth/token', revokePath: '/auth/revoke', scopes: [], pkce: true, clientAuth: 'basic' },
  describeAccount: async (client, userId) => {
    const xml = await client.request<string>(userId, { path: '/api/user', ...XML });
    const name = (tag: string) => new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml)?.[1] ?? null;
    return { user_id: name('UserId'), name: [name('FirstName'), name('LastName')].filter(Boolean).join(' ') || null, organization: name('OrganizationName') };
  },
  routes,
};
