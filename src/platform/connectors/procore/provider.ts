// Procore (construction management): browse the person's Procore companies, their projects and the
// projects' image categories, upload a camera's snapshot into a Procore project's Photos, and list
// what was uploaded from an Overlook project.
//
// Upstream (Procore REST API v1.0, https://developers.procore.com):
//   OAuth  GET  {login}/oauth/authorize, POST {login}/oauth/token, POST {login}/oauth/revoke
//   GET  /rest/v1.0/me                                        who we are
//   GET  /rest/v1.0/companies                                 companies the user belongs to
//   GET  /rest/v1.0/projects?company_id=…                     a company's projects (header Procore-Company-Id)
//   GET  /rest/v1.0/image_categories?project_id=…             a project's photo albums
//   POST /rest/v1.0/images?project_id=…                       multipart image[data], image[image_category_id],
//                                                             image[description], image[taken_at]
import { Type } from 'typebox';
import { fromPathProject, scoped } from '../../access/index.js';
import { actingUserId, allowedProject } from '../../http/index.js';
import { cameraImage, SnapshotSourceFields } from '../framework/snapshot-source.js';
import { connectorErrors } from '../framework/routes.js';
import type { ConnectorApp, ConnectorContext, ConnectorProvider } from '../framework/provider.js';
import { PageQuery, ProjectParams, RemoteId, UploadList, uploadsPage } from '../framework/common-schemas.js';
import { uploadRoute } from '../framework/upload-route.js';

interface ProcoreCompany {
  id: number;
  name: string;
  is_active?: boolean;
}
interface ProcoreProject {
  id: number;
  name: string;
  display_name?: string;
  project_number?: string | null;
  active?: boolean;
}
interface ProcoreCategory {
  id: number;
  name: string;
}
interface ProcoreImage {
  id: number;
  url?: string;
  thumbnail_url?: string;
  image_category_id?: number | null;
  created_at?: string;
}

const Company = Type.Object({ id: Type.String(), name: Type.String(), is_active: Type.Boolean() });
const Project = Type.Object({ id: Type.String(), name: Type.String(), project_number: Type.Union([Type.String(), Type.Null()]), active: Type.Boolean() });
const Category = Type.Object({ id: Type.String(), name: Type.String() });
const CompanyParams = Type.Object({ company_id: RemoteId });
const CompanyProjectParams = Type.Object({ company_id: RemoteId, project_id: RemoteId });
const UploadBody = Type.Object(
  {
    company_id: RemoteId,
    project_id: RemoteId,
    image_category_id: Type.Optional(RemoteId),
    description: Type.Optional(Type.String({ maxLength: 1000 })),
    ...SnapshotSourceFields,
  },
  { additionalProperties: false },
);
const UploadReply = Type.Object({
  id: Type.String({ description: 'The Overlook record of this upload' }),
  procore_image_id: Type.String(),
  procore_project_id: Type.String(),
  url: Type.Union([Type.String(), Type.Null()]),
  taken_at: Type.String(),
  file_name: Type.String(),
});

const companyHeader = (companyId: string) => ({ 'Procore-Company-Id': companyId });

function routes(app: ConnectorApp, ctx: ConnectorContext): void {
  const { client, prefix, tags, provider, store } = ctx;
  const browse = scoped(['project:connectors']);
  const op = provider.operationPrefix;

  app.get(
    `${prefix}/companies`,
    {
      config: { access: browse },
      schema: { tags, operationId: `${op}ListCompanies`, summary: 'Your Procore companies', response: { 200: Type.Array(Company), ...connectorErrors() } },
    },
    async (req) => {
      const list = await client.request<ProcoreCompany[]>(actingUserId(req), { path: '/rest/v1.0/companies', query: { per_page: 100 } });
      return list.map((c) => ({ id: String(c.id), name: c.name, is_active: c.is_active !== false }));
    },
  );

  app.get(
    `${prefix}/companies/:company_id/projects`,
    {
      config: { access: browse },
      schema: {
        tags,
        operationId: `${op}ListProjects`,
        summary: 'Projects of one of your Procore companies',
        params: CompanyParams,
        response: { 200: Type.Array(Project), ...connectorErrors() },
      },
    },
    async (req) => {
      const { company_id } = req.params;
      const list = await client.request<ProcoreProject[]>(actingUserId(req), {
        path: '/rest/v1.0/projects',
        query: { company_id, per_page: 300 },
        headers: companyHeader(company_id),
      });
      return list.map((p) => ({ id: String(p.id), name: p.display_name ?? p.name, project_number: p.project_number ?? null, active: p.active !== false }));
    },
  );

  app.get(
    `${prefix}/companies/:company_id/projects/:project_id/image-categories`,
    {
      config: { access: browse },
      schema: {
        tags,
        operationId: `${op}ListImageCategories`,
        summary: 'Photo albums (image categories) of a Procore project',
        params: CompanyProjectParams,
        response: { 200: Type.Array(Category), ...connectorErrors() },
      },
    },
    async (req) => {
      const { company_id, project_id } = req.params;
      const list = await client.request<ProcoreCategory[]>(actingUserId(req), {
        path: '/rest/v1.0/image_categories',
        query: { project_id },
        headers: companyHeader(company_id),
      });
      return list.map((c) => ({ id: String(c.id), name: c.name }));
    },
  );

  uploadRoute(app, ctx, {
    path: 'uploads',
    operation: 'UploadSnapshot',
    summary: "Upload a camera's snapshot (recorded or live) to a Procore project's photos",
    body: UploadBody,
    reply: UploadReply,
    upload: async ({ userId, cameraExid, body: b }) => {
      const image = await cameraImage(ctx.host, cameraExid, { source: b.source, timestamp: b.timestamp });
      const form = new FormData();
      form.set('image[data]', new Blob([new Uint8Array(image.jpeg)], { type: 'image/jpeg' }), image.fileName);
      if (b.image_category_id) form.set('image[image_category_id]', b.image_category_id);
      form.set('image[description]', b.description ?? `${cameraExid} at ${image.takenAt} (Overlook)`);
      form.set('image[taken_at]', image.takenAt);
      const created = await client.request<ProcoreImage>(userId, {
        method: 'POST',
        path: '/rest/v1.0/images',
        query: { project_id: b.project_id },
        form,
        headers: companyHeader(b.company_id),
      });
      return {
        remoteProjectId: b.project_id,
        remoteId: String(created.id),
        name: image.fileName,
        details: { company_id: b.company_id, image_category_id: b.image_category_id ?? null, url: created.url ?? null, taken_at: image.takenAt },
        reply: (id) => ({
          id,
          procore_image_id: String(created.id),
          procore_project_id: b.project_id,
          url: created.url ?? null,
          taken_at: image.takenAt,
          file_name: image.fileName,
        }),
      };
    },
  });

  app.get(
    `${prefix}/projects/:exid/uploads`,
    {
      config: { access: scoped(['project:connectors'], { project: fromPathProject, role: 'viewer' }) },
      schema: {
        tags,
        operationId: `${op}ListUploads`,
        summary: 'Snapshots uploaded to Procore from this project, newest first',
        params: ProjectParams,
        querystring: Type.Intersect([PageQuery, Type.Object({ procore_project_id: Type.Optional(RemoteId) })]),
        response: { 200: UploadList, ...connectorErrors() },
      },
    },
    async (req) => uploadsPage(store, provider.id, allowedProject(req).project.id, req.query, req.query.procore_project_id),
  );
}

export const procore: ConnectorProvider = {
  id: 'procore',
  name: 'Procore',
  operationPrefix: 'procore',
  authKind: 'oauth',
  defaultUrls: { api: 'https://api.procore.com', auth: 'https://login.procore.com' },
  oauth: { authorizePath: '/oauth/authorize', tokenPath: '/oauth/token', revokePath: '/oauth/revoke', scopes: [], pkce: false, clientAuth: 'post' },
  describeAccount: async (client, userId) => {
    const me = await client.request<{ id: number; login?: string; name?: string }>(userId, { path: '/rest/v1.0/me' });
    return { user_id: String(me.id), login: me.login ?? null, name: me.name ?? null };
  },
  routes,
};
