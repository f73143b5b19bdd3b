import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { fromBodyProject, fromPathProject, fromRecord, scoped } from '../access/index.js';
import { errorResponses, Nullable, StringEnum } from '../../lib/http/schemas.js';
import { actingUserId, allowedProject } from '../http/index.js';
import { ProgressPhotosService } from './progress-photos-service.js';
import { defineRoutes } from '../plugins/feature.js';

const Fields = {
  title: Type.String({ minLength: 1, maxLength: 200 }),
  camera_exids: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 100 }),
  recipients: Type.Array(Type.String({ minLength: 3, maxLength: 254 }), { minItems: 1, maxItems: 100 }),
  schedule: StringEnum(['daily', 'weekly']),
  days: Type.Array(Type.String({ maxLength: 3 }), { maxItems: 7, description: 'For weekly schedules: mon … sun' }),
  send_at: Type.String({ pattern: '^([01]\\d|2[0-3]):[0-5]\\d$', description: 'HH:MM in the project’s time zone' }),
  is_paused: Type.Boolean(),
};
const CreateBody = Type.Object(
  {
    project_exid: Type.String({ minLength: 1, maxLength: 64 }),
    title: Fields.title,
    camera_exids: Fields.camera_exids,
    recipients: Fields.recipients,
    schedule: Type.Optional(Fields.schedule),
    days: Type.Optional(Fields.days),
    send_at: Type.Optional(Fields.send_at),
    is_paused: Type.Optional(Fields.is_paused),
  },
  { additionalProperties: false },
);
const PatchBody = Type.Partial(Type.Object(Fields), { additionalProperties: false });
const ProgressPhoto = Type.Object({
  id: Type.String(),
  project_exid: Type.String(),
  title: Type.String(),
  camera_exids: Type.Array(Type.String()),
  recipients: Type.Array(Type.String()),
  schedule: Type.String(),
  days: Type.Array(Type.String()),
  send_at: Type.String(),
  provider: Type.String(),
  is_paused: Type.Boolean(),
  next_send_at: Nullable(Type.String({ description: 'The next delivery, or null when paused' })),
  creator_email: Nullable(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
});
const Id = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export const progressPhotoRoutes = defineRoutes('progress-photo-routes', ['db'], async (fastify, { db }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const photos = new ProgressPhotosService(db);
  const tags = ['progress-photos'];
  const ofRecord = fromRecord((req) => {
    const id = (req.params as { id?: unknown }).id;
    return typeof id === 'string' && id.length <= 64 ? photos.projectOf(id) : Promise.resolve(null);
  });

  app.get(
    '/v2/projects/:exid/progress-photos',
    {
      config: { access: scoped(['projects:read'], { project: fromPathProject }) },
      schema: {
        tags,
        operationId: 'listProgressPhotos',
        summary: 'The progress photo deliveries of a project',
        params: Type.Object({ exid: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: { 200: Type.Array(ProgressPhoto), ...errorResponses() },
      },
    },
    async (req) => photos.list(allowedProject(req).project.id),
  );

  app.post(
    '/v2/progress-photos',
    {
      config: { access: scoped(['projects:read'], { project: fromBodyProject, role: 'editor' }) },
      schema: {
        tags,
        operationId: 'createProgressPhoto',
        summary: 'Schedule a progress photo delivery',
        body: CreateBody,
        response: { 201: ProgressPhoto, ...errorResponses() },
      },
    },
    async (req, reply) => {
      const { project_exid: _p, ...input } = req.body;
      return reply.code(201).send(await photos.create(allowedProject(req).project.id, actingUserId(req), input));
    },
  );

  app.get(
    '/v2/progress-photos/:id',
    {
      config: { access: scoped(['projects:read'], { project: ofRecord }) },
      schema: {
        tags,
        operationId: 'getProgressPhoto',
        summary: 'One progress photo delivery',
        params: Id,
        response: { 200: ProgressPhoto, ...errorResponses() },
      },
    },
    async (req) => photos.get(req.params.id),
  );

  app.patch(
    '/v2/progress-photos/:id',
    {
      config: { access: scoped(['projects:read'], { project: ofRecord, role: 'editor' }) },
      schema: {
        tags,
        operationId: 'updateProgressPhoto',
        summary: 'Change a progress photo delivery',
        params: Id,
        body: PatchBody,
        response: { 200: ProgressPhoto, ...errorResponses() },
      },
    },
    async (req) => photos.update(req.params.id, req.body),
  );

  app.delete(
    '/v2/progress-photos/:id',
    {
      config: { access: scoped(['projects:read'], { project: ofRecord, role: 'editor' }) },
      schema: {
        tags,
        operationId: 'deleteProgressPhoto',
        summary: 'Delete a progress photo delivery',
        params: Id,
        response: { 204: Type.Null(), ...errorResponses() },
      },
    },
    async (req, reply) => {
      await photos.remove(req.params.id);
      return reply.code(204).send(null);
    },
  );
});
