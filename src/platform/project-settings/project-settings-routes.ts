import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { fromPathProject, scoped, type Role } from '../access/index.js';
import { errorResponses, StringEnum } from '../../lib/http/schemas.js';
import { PageQuery } from '../../lib/http/pagination.js';
import { allowedProject } from '../http/index.js';
import { AuditPage } from '../audit/index.js';
import { ProjectRecord, PROJECT_STATUSES, settingsActor } from '../projects/index.js';
import { ApiError } from '../../lib/errors.js';
import { defineRoutes } from '../plugins/feature.js';

const Params = Type.Object({ exid: Type.String({ minLength: 1, maxLength: 64 }) });
const MemberParams = Type.Object({ exid: Type.String({ minLength: 1, maxLength: 64 }), user_id: Type.String({ minLength: 1, maxLength: 64 }) });
const Member = Type.Object({
  user_id: Type.String(),
  email: Type.String(),
  firstname: Type.String(),
  lastname: Type.String(),
  role: Type.String(),
  created_at: Type.String(),
});
const RoleEntry = Type.Object({ role: Type.String(), rank: Type.Integer(), allows: Type.Array(Type.String()), includes: Type.Array(Type.String()) });
const UpdateBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    status: Type.Optional(StringEnum(PROJECT_STATUSES)),
    timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone' })),
  },
  { additionalProperties: false, minProperties: 1, description: 'Fields left out keep their value' },
);
const TransferBody = Type.Object(
  {
    user_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    email: Type.Optional(Type.String({ minLength: 3, maxLength: 254 })),
  },
  { additionalProperties: false, description: 'Exactly one of user_id or email: an existing member of the project' },
);

export const projectSettingsRoutes = defineRoutes(
  'project-settings-routes',
  ['projectSettings', 'projects', 'members'],
  async (fastify, { projectSettings, projects, members }) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const tags = ['settings'];
    const settings = (role: Role) => ({ access: scoped(['project:settings'], { project: fromPathProject, role }) });

    app.patch(
      '/v2/projects/:exid',
      {
        config: settings('admin'),
        schema: {
          tags,
          operationId: 'updateProject',
          summary: 'Change the project’s name, status or time zone',
          params: Params,
          body: UpdateBody,
          response: { 200: ProjectRecord, ...errorResponses() },
        },
      },
      async (req) => {
        const { project, role } = allowedProject(req);
        await projectSettings.update(settingsActor(req), project, req.body);
        return projects.get(project.id, role);
      },
    );

    app.delete(
      '/v2/projects/:exid',
      {
        config: settings('owner'),
        schema: {
          tags,
          operationId: 'deleteProject',
          summary: 'Delete the project with its cameras, recordings and every stored file (owner only; cannot be undone)',
          params: Params,
          response: { 204: Type.Null(), ...errorResponses() },
        },
      },
      async (req, reply) => {
        await projectSettings.delete(settingsActor(req), allowedProject(req).project);
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/v2/projects/:exid/transfer',
      {
        config: settings('owner'),
        schema: {
          tags,
          operationId: 'transferProject',
          summary: 'Make another member the owner; the current owner becomes an admin (owner only)',
          params: Params,
          body: TransferBody,
          response: { 200: ProjectRecord, ...errorResponses(409) },
        },
      },
      async (req) => {
        const { project } = allowedProject(req);
        await projectSettings.transfer(settingsActor(req), project, req.body);
        return projects.get(project.id, 'admin');
      },
    );

    app.get(
      '/v2/projects/:exid/roles',
      {
        config: settings('viewer'),
        schema: {
          tags,
          operationId: 'listProjectRoles',
          summary: 'The role ladder and what each role allows',
          params: Params,
          response: { 200: Type.Array(RoleEntry), ...errorResponses() },
        },
      },
      async () => projectSettings.roles(),
    );

    app.get(
      '/v2/projects/:exid/members/:user_id',
      {
        config: settings('viewer'),
        schema: {
          tags: ['members'],
          operationId: 'getMember',
          summary: 'One member and their role',
          params: MemberParams,
          response: { 200: Member, ...errorResponses() },
        },
      },
      async (req) => {
        const m = (await members.list(allowedProject(req).project.id)).find((x) => x.user_id === req.params.user_id);
        if (!m) throw new ApiError('NOT_FOUND', 'That person is not a member of this project');
        return m;
      },
    );

    app.get(
      '/v2/projects/:exid/settings/history',
      {
        config: settings('admin'),
        schema: {
          tags,
          operationId: 'projectSettingsHistory',
          summary: 'Audit events of the project: updates, transfers, member and role changes, camera deletions; newest first',
          params: Params,
          querystring: Type.Object({ ...PageQuery }, { additionalProperties: false }),
          response: { 200: AuditPage, ...errorResponses() },
        },
      },
      async (req) => projectSettings.history(allowedProject(req).project, { page: req.query.page ?? 1, pageSize: req.query.page_size ?? 50 }),
    );
  },
);
