import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { fromPathProject, listOfProjects, scoped } from '../access/index.js';
import { errorResponses } from '../../lib/http/schemas.js';
import { actingUserId, allowedProject } from '../http/index.js';
import { ProjectRecord } from './project-record.js';
import { ReadingsPage, ReadingsQuery } from './readings-schemas.js';
import { defineRoutes } from '../plugins/feature.js';

const ExidParams = Type.Object({ exid: Type.String({ minLength: 1, maxLength: 64 }) });
const CreateBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone, default UTC' })),
    status: Type.Optional(Type.Union([Type.Literal('To Start'), Type.Literal('In Progress'), Type.Literal('Completed')])),
  },
  { additionalProperties: false },
);
export const projectRoutes = defineRoutes('project-routes', ['projects', 'directory', 'cameras'], async (fastify, { projects, directory, cameras }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['projects'];
  const read = (role: 'viewer' = 'viewer') => scoped(['projects:read'], { project: fromPathProject, role });

  app.get(
    '/v2/projects',
    {
      config: { access: scoped(['projects:read'], { project: listOfProjects }) },
      schema: {
        tags,
        operationId: 'listProjects',
        summary: 'The caller’s projects (a key sees only its own)',
        response: { 200: Type.Array(ProjectRecord), ...errorResponses() },
      },
    },
    async (req) => projects.list(await directory.visibleProjects(req.principal)),
  );

  app.post(
    '/v2/projects',
    {
      // Creation is under projects:read (docs/access-model.md). The key's owner becomes the owner; the key's own
      // project list is not extended, so the key reaches the new project only once its owner adds it.
      config: { access: scoped(['projects:read']) },
      schema: {
        tags,
        operationId: 'createProject',
        summary: 'Create a project; the caller becomes its owner',
        body: CreateBody,
        response: { 201: ProjectRecord, ...errorResponses() },
      },
    },
    async (req, reply) => reply.code(201).send(await projects.create(actingUserId(req), req.body)),
  );

  app.get(
    '/v2/projects/:exid',
    {
      config: { access: read() },
      schema: { tags, operationId: 'getProject', summary: 'One project', params: ExidParams, response: { 200: ProjectRecord, ...errorResponses() } },
    },
    async (req) => {
      const { project, role } = allowedProject(req);
      return projects.get(project.id, role);
    },
  );

  app.get(
    '/v2/projects/:exid/contacts',
    {
      config: { access: read() },
      schema: {
        tags,
        operationId: 'listProjectContacts',
        summary: 'The people of the project',
        params: ExidParams,
        response: {
          200: Type.Array(
            Type.Object({ user_id: Type.String(), email: Type.String(), firstname: Type.String(), lastname: Type.String(), role: Type.String() }),
          ),
          ...errorResponses(),
        },
      },
    },
    async (req) => projects.contacts(allowedProject(req).project.id),
  );

  app.get(
    '/v2/projects/:exid/camera_refs',
    {
      config: { access: read() },
      schema: {
        tags,
        operationId: 'listProjectCameraRefs',
        summary: 'Lightweight references to the project’s cameras',
        params: ExidParams,
        response: { 200: Type.Array(Type.Object({ exid: Type.String(), name: Type.String(), status: Type.String() })), ...errorResponses() },
      },
    },
    async (req) => cameras.refsOfProject(allowedProject(req).project.id),
  );

  app.get(
    '/v2/projects/:exid/battery-readings',
    {
      config: { access: read() },
      schema: {
        tags,
        operationId: 'listProjectBatteryReadings',
        summary: 'Battery readings of the project’s cameras, newest first',
        params: ExidParams,
        querystring: ReadingsQuery,
        response: { 200: ReadingsPage, ...errorResponses() },
      },
    },
    async (req) =>
      cameras.projectReadings(allowedProject(req).project.id, {
        from: req.query.from,
        to: req.query.to,
        page: req.query.page ?? 1,
        pageSize: req.query.page_size ?? 50,
      }),
  );
});
