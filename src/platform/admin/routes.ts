import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { adminOnly } from '../access/index.js';
import { errorResponses, Nullable, StringEnum } from '../../lib/http/schemas.js';
import { PageMeta, PageQuery } from '../../lib/http/pagination.js';
import { UserRecord } from '../users/index.js';
import { ApiKeyRecord } from '../api-keys/index.js';
import { auditContext, AuditQueryString, AuditPage, auditQuery } from '../audit/index.js';
import { defineRoutes } from '../plugins/feature.js';

const Id = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const ExidParam = Type.Object({ exid: Type.String({ minLength: 1, maxLength: 64 }) });
const Search = Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Case-insensitive substring' }));
const page = (q: { page?: number; page_size?: number }) => ({ page: q.page ?? 1, pageSize: q.page_size ?? 50 });
const Paged = <T extends Parameters<typeof Type.Array>[0]>(item: T) => Type.Object({ meta: PageMeta, data: Type.Array(item) });

const AdminUser = Type.Object({ ...UserRecord.properties, disabled: Type.Boolean(), disabled_at: Nullable(Type.String()) });
const AdminUserDetail = Type.Object({
  ...AdminUser.properties,
  active_sessions: Type.Integer(),
  api_keys: Type.Object({ total: Type.Integer(), valid: Type.Integer() }),
  projects: Type.Array(Type.Object({ project_exid: Type.String(), project_name: Type.String(), role: Type.String() })),
  identities: Type.Array(Type.Object({ provider: Type.String(), email: Type.String(), created_at: Type.String(), last_login_at: Type.String() })),
});
const Owner = Nullable(Type.Object({ id: Type.String(), email: Type.String() }));
const AdminProject = Type.Object({
  exid: Type.String(),
  name: Type.String(),
  status: Type.String(),
  timezone: Type.String(),
  created_at: Type.String(),
  owner: Owner,
  camera_count: Type.Integer(),
  member_count: Type.Integer(),
});
const AdminProjectDetail = Type.Object({
  exid: Type.String(),
  name: Type.String(),
  status: Type.String(),
  timezone: Type.String(),
  created_at: Type.String(),
  owner: Owner,
  members: Type.Array(Type.Object({ user_id: Type.String(), email: Type.String(), role: Type.String() })),
  cameras: Type.Array(Type.Object({ exid: Type.String(), name: Type.String(), kind: Type.String(), status: Type.String() })),
});
const AdminCamera = Type.Object({
  exid: Type.String(),
  name: Type.String(),
  kind: Type.String(),
  status: Type.String(),
  last_online_at: Nullable(Type.String()),
  created_at: Type.String(),
  project_exid: Type.String(),
  project_name: Type.String(),
});
const AdminCameraDetail = Type.Object({ ...AdminCamera.properties, timezone: Type.String(), last_checked_at: Nullable(Type.String()) });
const AdminKey = Type.Object({ ...ApiKeyRecord.properties, owner: Type.Object({ id: Type.String(), email: Type.String() }) });
const Impersonation = Type.Object({
  session_id: Type.String(),
  created_at: Type.String(),
  expires_at: Type.String(),
  last_seen_at: Type.String(),
  user_id: Type.String(),
  user_email: Type.String(),
  impersonator_id: Type.String(),
  impersonator_email: Type.String(),
});
const Count = (name: string) => Type.Object({ [name]: Type.Integer() });

export const adminRoutes = defineRoutes('admin-routes', ['admin', 'impersonation', 'audit'], async (fastify, { admin, impersonation, audit }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const config = { access: adminOnly() };
  const tags = ['admin'];

  // ---- people ----
  app.get(
    '/v2/admin/users',
    {
      config,
      schema: {
        tags,
        operationId: 'adminListUsers',
        summary: 'Search people across the platform (e-mail, name, or exact id)',
        querystring: Type.Object(
          { q: Search, status: Type.Optional(StringEnum(['active', 'disabled'])), admin: Type.Optional(Type.Boolean()), ...PageQuery },
          { additionalProperties: false },
        ),
        response: { 200: Paged(AdminUser), ...errorResponses() },
      },
    },
    async (req) => admin.searchUsers({ ...page(req.query), q: req.query.q, status: req.query.status, admin: req.query.admin }),
  );

  app.get(
    '/v2/admin/users/:id',
    {
      config,
      schema: {
        tags,
        operationId: 'adminGetUser',
        summary: 'A person, with their sessions, keys, projects and linked identities',
        params: Id,
        response: { 200: AdminUserDetail, ...errorResponses() },
      },
    },
    async (req) => admin.getUser(req.params.id),
  );

  app.patch(
    '/v2/admin/users/:id',
    {
      config,
      schema: {
        tags,
        operationId: 'adminUpdateUser',
        summary: 'Make a person a platform admin, or not',
        params: Id,
        body: Type.Object({ is_admin: Type.Boolean() }, { additionalProperties: false }),
        response: { 200: AdminUserDetail, ...errorResponses(409) },
      },
    },
    async (req) => admin.setAdmin(auditContext(req), req.params.id, req.body.is_admin),
  );

  app.post(
    '/v2/admin/users/:id/disable',
    {
      config,
      schema: {
        tags,
        operationId: 'adminDisableUser',
        summary: 'Disable an account: its sessions end and its keys stop working at once; it cannot sign in',
        params: Id,
        response: { 200: AdminUserDetail, ...errorResponses(409) },
      },
    },
    async (req) => admin.setDisabled(auditContext(req), req.params.id, true),
  );

  app.post(
    '/v2/admin/users/:id/enable',
    {
      config,
      schema: {
        tags,
        operationId: 'adminEnableUser',
        summary: 'Enable a disabled account again (its keys work again; its old sessions stay ended)',
        params: Id,
        response: { 200: AdminUserDetail, ...errorResponses() },
      },
    },
    async (req) => admin.setDisabled(auditContext(req), req.params.id, false),
  );

  app.post(
    '/v2/admin/users/:id/reset-sessions',
    {
      config,
      schema: {
        tags,
        operationId: 'adminResetSessions',
        summary: 'End every session of a person',
        params: Id,
        response: { 200: Count('sessions_ended'), ...errorResponses() },
      },
    },
    async (req) => admin.resetSessions(auditContext(req), req.params.id),
  );

  app.post(
    '/v2/admin/users/:id/revoke-api-keys',
    {
      config,
      schema: {
        tags,
        operationId: 'adminRevokeUserApiKeys',
        summary: 'Revoke every key of a person (a leaked key)',
        params: Id,
        response: { 200: Count('revoked'), ...errorResponses() },
      },
    },
    async (req) => admin.revokeAllKeys(auditContext(req), req.params.id),
  );

  // ---- impersonation ----
  app.post(
    '/v2/admin/users/:id/impersonate',
    {
      config,
      schema: {
        tags,
        operationId: 'adminImpersonateUser',
        summary: 'Sign in as another person (short-lived, marked, audited; no key or password changes)',
        params: Id,
        response: {
          201: Type.Object({
            token: Type.String(),
            session_id: Type.String(),
            expires_at: Type.String(),
            user: UserRecord,
            impersonator: Type.Object({ id: Type.String(), email: Type.String() }),
          }),
          ...errorResponses(409),
        },
      },
    },
    async (req, reply) => reply.code(201).send(await impersonation.start(auditContext(req), req.params.id)),
  );

  app.get(
    '/v2/admin/impersonations',
    {
      config,
      schema: {
        tags,
        operationId: 'adminListImpersonations',
        summary: 'Live impersonated sessions',
        response: { 200: Type.Array(Impersonation), ...errorResponses() },
      },
    },
    async () => impersonation.list(),
  );

  app.delete(
    '/v2/admin/impersonations/:id',
    {
      config,
      schema: {
        tags,
        operationId: 'adminEndImpersonation',
        summary: 'End an impersonated session; its JWT is refused from the next request',
        params: Id,
        response: { 204: Type.Null(), ...errorResponses(409) },
      },
    },
    async (req, reply) => {
      await impersonation.end(auditContext(req), req.params.id);
      return reply.code(204).send(null);
    },
  );

  // ---- projects and cameras ----
  app.get(
    '/v2/admin/projects',
    {
      config,
      schema: {
        tags,
        operationId: 'adminListProjects',
        summary: 'Search projects across the platform',
        querystring: Type.Object(
          { q: Search, owner_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })), ...PageQuery },
          { additionalProperties: false },
        ),
        response: { 200: Paged(AdminProject), ...errorResponses() },
      },
    },
    async (req) => admin.searchProjects({ ...page(req.query), q: req.query.q, owner_id: req.query.owner_id }),
  );

  app.get(
    '/v2/admin/projects/:exid',
    {
      config,
      schema: {
        tags,
        operationId: 'adminGetProject',
        summary: 'A project with its members and cameras',
        params: ExidParam,
        response: { 200: AdminProjectDetail, ...errorResponses() },
      },
    },
    async (req) => admin.getProject(req.params.exid),
  );

  app.post(
    '/v2/admin/projects/:exid/transfer',
    {
      config,
      schema: {
        tags,
        operationId: 'adminTransferProject',
        summary: 'Make another person the owner; the previous owner stays as a project admin',
        params: ExidParam,
        body: Type.Object(
          { user_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })), email: Type.Optional(Type.String({ minLength: 3, maxLength: 254 })) },
          { additionalProperties: false },
        ),
        response: { 200: AdminProjectDetail, ...errorResponses(409) },
      },
    },
    async (req) => admin.transferProject(auditContext(req), req.params.exid, req.body),
  );

  app.get(
    '/v2/admin/cameras',
    {
      config,
      schema: {
        tags,
        operationId: 'adminListCameras',
        summary: 'Search cameras across the platform',
        querystring: Type.Object(
          { q: Search, project_exid: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })), ...PageQuery },
          { additionalProperties: false },
        ),
        response: { 200: Paged(AdminCamera), ...errorResponses() },
      },
    },
    async (req) => admin.searchCameras({ ...page(req.query), q: req.query.q, project_exid: req.query.project_exid }),
  );

  app.get(
    '/v2/admin/cameras/:exid',
    {
      config,
      schema: {
        tags,
        operationId: 'adminGetCamera',
        summary: 'A camera (never its connection credentials)',
        params: ExidParam,
        response: { 200: AdminCameraDetail, ...errorResponses() },
      },
    },
    async (req) => admin.getCamera(req.params.exid),
  );

  // ---- API keys ----
  app.get(
    '/v2/admin/api-keys',
    {
      config,
      schema: {
        tags,
        operationId: 'adminListApiKeys',
        summary: 'API keys across the platform, by owner and status (never a value or hash)',
        querystring: Type.Object(
          {
            user_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
            status: Type.Optional(StringEnum(['valid', 'expired', 'revoked'])),
            ...PageQuery,
          },
          { additionalProperties: false },
        ),
        response: { 200: Paged(AdminKey), ...errorResponses() },
      },
    },
    async (req) => admin.listKeys({ ...page(req.query), user_id: req.query.user_id, status: req.query.status }),
  );

  app.post(
    '/v2/admin/api-keys/:id/revoke',
    {
      config,
      schema: {
        tags,
        operationId: 'adminRevokeApiKey',
        summary: 'Revoke one key; it gets 401 from the next request',
        params: Id,
        response: { 200: AdminKey, ...errorResponses() },
      },
    },
    async (req) => admin.revokeKey(auditContext(req), req.params.id),
  );

  // ---- statistics and audit ----
  app.get(
    '/v2/admin/stats',
    {
      config,
      schema: {
        tags,
        operationId: 'adminStats',
        summary: 'Platform statistics',
        response: {
          200: Type.Object({
            users: Type.Object({ total: Type.Integer(), admins: Type.Integer(), disabled: Type.Integer() }),
            projects: Type.Object({ total: Type.Integer() }),
            cameras: Type.Object({ total: Type.Integer() }),
            api_keys: Type.Object({ total: Type.Integer(), valid: Type.Integer(), revoked: Type.Integer(), expired: Type.Integer() }),
            sessions: Type.Object({ active: Type.Integer(), impersonated: Type.Integer() }),
            audit_events_last_24h: Type.Integer(),
          }),
          ...errorResponses(),
        },
      },
    },
    async () => admin.stats(),
  );

  app.get(
    '/v2/admin/audit',
    {
      config,
      schema: {
        tags,
        operationId: 'adminListAuditEvents',
        summary: 'The whole audit log, newest first, filterable',
        querystring: Type.Object(
          {
            ...AuditQueryString,
            actor_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
            user_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Events this person did or that concern them' })),
            subject_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
          },
          { additionalProperties: false },
        ),
        response: { 200: AuditPage, ...errorResponses() },
      },
    },
    async (req) => audit.list({ ...auditQuery(req.query), actorUserId: req.query.actor_id, subjectUserId: req.query.subject_id, involving: req.query.user_id }),
  );
});
