import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ApiError } from '../../lib/errors.js';
import { PageMeta, PageQuery } from '../../lib/http/pagination.js';
import { scoped } from '../access/index.js';
import { logActivity } from '../auth/index.js';
import { auditContext } from '../audit/index.js';
import { errorResponses, Nullable, StringEnum } from '../../lib/http/schemas.js';
import { actingUserId } from '../http/index.js';
import { UserRecord } from '../users/index.js';
import { AccountService } from './account-service.js';
import { defineRoutes } from '../plugins/feature.js';

const Id = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const ProjectRole = Type.Object({ project_exid: Type.String(), project_name: Type.String(), role: Type.String() });
const Session = Type.Object({
  id: Type.String(),
  created_at: Type.String(),
  last_seen_at: Type.String(),
  expires_at: Type.String(),
  ip: Nullable(Type.String()),
  user_agent: Nullable(Type.String()),
  current: Type.Boolean(),
  impersonated_by: Nullable(Type.Object({ id: Type.String(), email: Type.String() }, { description: 'The platform admin behind an impersonated session' })),
});
const Activity = Type.Object({
  id: Type.String(),
  session_id: Nullable(Type.String()),
  action: Type.String(),
  ip: Nullable(Type.String()),
  user_agent: Nullable(Type.String()),
  created_at: Type.String(),
});
const UpdateBody = Type.Object(
  {
    firstname: Type.Optional(Type.String({ maxLength: 100 })),
    lastname: Type.Optional(Type.String({ maxLength: 100 })),
    password: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'New password; needs current_password; not with an API key' })),
    current_password: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  },
  { additionalProperties: false },
);

export const userRoutes = defineRoutes(
  'user-routes',
  ['db', 'directory', 'sessions', 'loginThrottle', 'audit'],
  async (fastify, { db, directory, sessions, loginThrottle, audit }) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const users = new AccountService(db, directory, sessions, loginThrottle, audit);
    const tags = ['users'];
    const info = { access: scoped(['user:info']) };
    // Account control: open to keys with the scope, never to an app's OAuth token (docs/oauth-mcp.md).
    const sessionsInfo = { access: scoped(['user:info'], { account: 'sessions' }) };
    const sessionsWrite = { access: scoped(['profile:write'], { account: 'sessions' }) };
    const profileWrite = { access: scoped(['profile:write'], { account: 'profile' }) };

    app.get(
      '/v2/users/:id',
      {
        config: info,
        schema: {
          tags,
          operationId: 'getUser',
          summary: 'A person’s record (your own; admins any)',
          params: Id,
          response: { 200: UserRecord, ...errorResponses() },
        },
      },
      async (req) => users.get(req.principal, req.params.id),
    );

    app.get(
      '/v2/users/:email/features',
      {
        config: info,
        schema: {
          tags,
          operationId: 'getUserFeatures',
          summary: 'The features enabled for a person, by e-mail',
          params: Type.Object({ email: Type.String({ minLength: 3, maxLength: 254 }) }),
          response: { 200: Type.Object({ email: Type.String(), features: Type.Array(Type.String()) }), ...errorResponses() },
        },
      },
      async (req) => users.features(req.principal, req.params.email),
    );

    app.get(
      '/v2/users/permissions',
      {
        config: info,
        schema: {
          tags,
          operationId: 'getUserPermissions',
          summary: 'What the caller may do on each project (a key: its owner’s rights on the key’s projects)',
          response: {
            200: Type.Object({
              via: StringEnum(['session', 'api_key']),
              projects: Type.Array(Type.Object({ ...ProjectRole.properties, actions: Type.Array(Type.String()) })),
            }),
            ...errorResponses(),
          },
        },
      },
      async (req) => users.permissions(req.principal),
    );

    app.get(
      '/v2/users/roles',
      {
        config: info,
        schema: {
          tags,
          operationId: 'getUserRoles',
          summary: 'The caller’s platform role and role on each project',
          response: { 200: Type.Object({ platform_role: StringEnum(['admin', 'user']), projects: Type.Array(ProjectRole) }), ...errorResponses() },
        },
      },
      async (req) => users.roles(req.principal),
    );

    app.get(
      '/v2/users/active-sessions',
      {
        config: sessionsInfo,
        schema: {
          tags,
          operationId: 'listActiveSessions',
          summary: 'The caller’s live sessions; `current` marks this one',
          response: { 200: Type.Array(Session), ...errorResponses() },
        },
      },
      async (req) => users.activeSessions(req.principal),
    );

    app.get(
      '/v2/users/session/activities',
      {
        config: sessionsInfo,
        schema: {
          tags,
          operationId: 'listSessionActivities',
          summary: 'Sign-ins, failed sign-ins, sign-outs and revocations, newest first',
          querystring: Type.Object({ action: Type.Optional(StringEnum(['login', 'login_failed', 'logout', 'session_revoked'])), ...PageQuery }),
          response: { 200: Type.Object({ meta: PageMeta, data: Type.Array(Activity) }), ...errorResponses() },
        },
      },
      async (req) => users.activities(req.principal, { action: req.query.action, page: req.query.page ?? 1, pageSize: req.query.page_size ?? 50 }),
    );

    app.patch(
      '/v2/users/:id',
      {
        config: profileWrite,
        schema: {
          tags,
          operationId: 'updateUser',
          summary: 'Update your own profile',
          params: Id,
          body: UpdateBody,
          response: { 200: UserRecord, ...errorResponses() },
        },
      },
      async (req) => users.update(req.principal, req.params.id, req.body, auditContext(req)),
    );

    app.delete(
      '/v2/users/active-sessions/:id',
      {
        config: sessionsWrite,
        schema: {
          tags,
          operationId: 'revokeSession',
          summary: 'End one of your sessions; its JWT is refused from the next request',
          params: Id,
          response: { 204: Type.Null(), ...errorResponses() },
        },
      },
      async (req, reply) => {
        const userId = actingUserId(req);
        if (!(await sessions.revoke(req.params.id, userId))) throw new ApiError('NOT_FOUND', 'Session not found');
        await logActivity({ db, audit }, req, userId, 'session_revoked', req.params.id);
        return reply.code(204).send(null);
      },
    );
  },
);
