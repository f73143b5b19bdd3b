// Invitations (docs/settings.md, Members): the project's pending ones for its admins, and the signed-in
// person's own, to accept or decline. Every one is closed to API keys: the project's two because the
// published count of `project:settings` operations is fixed (docs/access-model.md), the person's own
// because joining a project is the person's decision, not a program's.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { fromPathProject, peopleOnly } from '../access/index.js';
import { auditContext } from '../audit/index.js';
import { errorResponses, Nullable } from '../../lib/http/schemas.js';
import { UserRecord } from '../users/index.js';
import { actingUserId, allowedProject } from '../http/index.js';
import { defineRoutes } from '../plugins/feature.js';

const Params = Type.Object({ exid: Type.String({ minLength: 1, maxLength: 64 }) });
const ProjectInvitationParams = Type.Object({ exid: Type.String({ minLength: 1, maxLength: 64 }), id: Type.String({ minLength: 1, maxLength: 64 }) });
const Id = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const ProjectInvitation = Type.Object({
  id: Type.String(),
  email: Type.String(),
  role: Type.String(),
  invited_by: Nullable(Type.String({ description: 'The id of the person who invited (or last re-invited)' })),
  created_at: Type.String(),
  expires_at: Type.String(),
});
const MyInvitation = Type.Object({
  id: Type.String(),
  project_exid: Type.String(),
  project_name: Type.String(),
  role: Type.String(),
  created_at: Type.String(),
  expires_at: Type.String(),
});
const Joined = Type.Object({ project_exid: Type.String(), role: Type.String({ description: 'The role the person now holds' }) });
const ClaimBody = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 256, description: 'The token of the invitation e-mail’s link' }),
    password: Type.String({ minLength: 1, maxLength: 256 }),
    firstname: Type.Optional(Type.String({ maxLength: 100 })),
    lastname: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { additionalProperties: false },
);
const Claimed = Type.Object({ user: UserRecord, project_exid: Type.String(), role: Type.String() });

export const invitationRoutes = defineRoutes('invitation-routes', ['invitations'], async (fastify, { invitations }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['members'];
  const projectAdmins = { access: peopleOnly({ project: fromPathProject, role: 'admin' }) };
  // Accepting joins a project as the person: not done by an admin acting as them.
  const person = { access: peopleOnly({ notImpersonated: true }) };

  app.get(
    '/v2/projects/:exid/invitations',
    {
      config: projectAdmins,
      schema: {
        tags,
        operationId: 'listProjectInvitations',
        summary: 'The project’s pending invitations (e-mails added that had no account)',
        params: Params,
        response: { 200: Type.Array(ProjectInvitation), ...errorResponses() },
      },
    },
    async (req) => invitations.ofProject(allowedProject(req).project),
  );

  app.delete(
    '/v2/projects/:exid/invitations/:id',
    {
      config: projectAdmins,
      schema: {
        tags,
        operationId: 'cancelProjectInvitation',
        summary: 'Cancel a pending invitation',
        params: ProjectInvitationParams,
        response: { 204: Type.Null(), ...errorResponses() },
      },
    },
    async (req, reply) => {
      await invitations.cancel(auditContext(req), allowedProject(req).project, req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/v2/users/me/invitations',
    {
      config: person,
      schema: {
        tags,
        operationId: 'listMyInvitations',
        summary: 'The invitations waiting for your e-mail',
        response: { 200: Type.Array(MyInvitation), ...errorResponses() },
      },
    },
    async (req) => invitations.mine(actingUserId(req)),
  );

  app.post(
    '/v2/invitations/claim',
    {
      // The token proves the e-mail is the caller's: the link of the invitation e-mail (docs/email.md).
      config: { access: peopleOnly({ anonymous: true }) },
      schema: {
        tags,
        operationId: 'claimInvitation',
        summary: 'Make the invited e-mail’s account and join the project, with the token of the invitation e-mail',
        body: ClaimBody,
        response: { 201: Claimed, ...errorResponses() },
      },
    },
    async (req, reply) => {
      const { token, ...person } = req.body;
      return reply.code(201).send(await invitations.claim(auditContext(req), token, person));
    },
  );

  app.post(
    '/v2/invitations/:id/accept',
    {
      config: person,
      schema: {
        tags,
        operationId: 'acceptInvitation',
        summary: 'Join the project with the invited role',
        params: Id,
        response: { 200: Joined, ...errorResponses() },
      },
    },
    async (req) => invitations.accept(auditContext(req), actingUserId(req), req.params.id),
  );

  app.delete(
    '/v2/invitations/:id',
    {
      config: person,
      schema: {
        tags,
        operationId: 'declineInvitation',
        summary: 'Decline an invitation',
        params: Id,
        response: { 204: Type.Null(), ...errorResponses() },
      },
    },
    async (req, reply) => {
      await invitations.decline(auditContext(req), actingUserId(req), req.params.id);
      return reply.code(204).send(null);
    },
  );
});
