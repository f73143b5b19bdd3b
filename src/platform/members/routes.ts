// Project members (docs/settings.md): four endpoints under project:settings.
import { auditContext } from '../audit/index.js';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { fromPathProject, scoped } from '../access/index.js';
import { errorResponses } from '../../lib/http/schemas.js';
import { actingUserId, allowedProject } from '../http/index.js';
import { defineRoutes } from '../plugins/feature.js';

const Params = Type.Object({ exid: Type.String({ minLength: 1, maxLength: 64 }) });
const MemberParams = Type.Object({ exid: Type.String({ minLength: 1, maxLength: 64 }), user_id: Type.String({ minLength: 1, maxLength: 64 }) });
const Role = Type.String({ minLength: 1, maxLength: 20, description: 'viewer, editor or admin' });
const Member = Type.Object({
  user_id: Type.String(),
  email: Type.String(),
  firstname: Type.String(),
  lastname: Type.String(),
  role: Type.String(),
  created_at: Type.String(),
});

/** What adding answers, the same for an e-mail with or without an account: no names, no ids. */
const Added = Type.Object({
  email: Type.String({ description: 'The e-mail, normalised' }),
  role: Type.String(),
});

export const memberRoutes = defineRoutes('member-routes', ['members'], async (fastify, { members }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['members'];
  const settings = (role: 'viewer' | 'admin') => ({ access: scoped(['project:settings'], { project: fromPathProject, role }) });
  const actor = (req: Parameters<typeof allowedProject>[0]) => {
    const { project, role } = allowedProject(req);
    return { project, actor: { userId: actingUserId(req), role, audit: auditContext(req) } };
  };

  app.get(
    '/v2/projects/:exid/members',
    {
      config: settings('viewer'),
      schema: {
        tags,
        operationId: 'listMembers',
        summary: 'The members of a project and their roles',
        params: Params,
        response: { 200: Type.Array(Member), ...errorResponses() },
      },
    },
    async (req) => members.list(allowedProject(req).project.id),
  );

  app.post(
    '/v2/projects/:exid/members',
    {
      config: settings('admin'),
      schema: {
        tags,
        operationId: 'addMember',
        summary: 'Add a person by e-mail with a role: with an account they are a member at once, else the e-mail is invited',
        description:
          'The answer is the same whether or not the e-mail has an account, so it tells nobody who has one. ' +
          'A person with an account joins at once and is notified; an e-mail with no account gets an invitation ' +
          '(or its pending one is refreshed), which the person accepts once they have an account with that e-mail.',
        params: Params,
        body: Type.Object({ email: Type.String({ minLength: 3, maxLength: 254 }), role: Role }, { additionalProperties: false }),
        response: { 201: Added, ...errorResponses(409) },
      },
    },
    async (req, reply) => {
      const { project, actor: a } = actor(req);
      return reply.code(201).send(await members.add(a, project, req.body));
    },
  );

  app.patch(
    '/v2/projects/:exid/members/:user_id',
    {
      config: settings('admin'),
      schema: {
        tags,
        operationId: 'changeMemberRole',
        summary: 'Change a member’s role',
        params: MemberParams,
        body: Type.Object({ role: Role }, { additionalProperties: false }),
        response: { 200: Member, ...errorResponses() },
      },
    },
    async (req) => {
      const { project, actor: a } = actor(req);
      return members.change(a, project, req.params.user_id, req.body.role);
    },
  );

  app.delete(
    '/v2/projects/:exid/members/:user_id',
    {
      // Any member may remove themself (leave); removing someone else needs admin.
      config: { access: scoped(['project:settings'], { project: fromPathProject, role: 'admin', self: { param: 'user_id', role: 'viewer' } }) },
      schema: {
        tags,
        operationId: 'removeMember',
        summary: 'Remove a member from a project, or leave it (your own user id)',
        description:
          'An admin removes a member below the owner. Any signed-in member may leave a project they do not own with their own user id; ' +
          'an API key always needs its owner to be an admin. The person’s keys lose the project and the invitations they made to it are withdrawn.',
        params: MemberParams,
        response: { 204: Type.Null(), ...errorResponses() },
      },
    },
    async (req, reply) => {
      const { project, actor: a } = actor(req);
      await members.remove(a, project, req.params.user_id);
      return reply.code(204).send(null);
    },
  );
});
