// Comments on a project's cameras (project:comments): list, get, create, edit (incl. archive), delete.
import type { FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { fromPathProject, scoped } from '../access/index.js';
import { errorResponses, Nullable, StringEnum } from '../../lib/http/schemas.js';
import { PageMeta, PageQuery } from '../../lib/http/pagination.js';
import { actingUserId, allowedProject } from '../http/index.js';
import { defineRoutes } from '../plugins/feature.js';

const Params = Type.Object({ exid: Type.String({ minLength: 1, maxLength: 64 }) });
const IdParams = Type.Object({ exid: Type.String({ minLength: 1, maxLength: 64 }), id: Type.String({ minLength: 1, maxLength: 64 }) });
const Position = Type.Object(
  { x: Type.Number({ minimum: 0, maximum: 1 }), y: Type.Number({ minimum: 0, maximum: 1 }) },
  { additionalProperties: false, description: 'Point on the image, 0..1 from the left and from the top' },
);
const Content = Type.String({ minLength: 1, maxLength: 5000 });
const Mentions = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
  maxItems: 50,
  description: 'User ids of members to notify, besides the @email mentions in the text',
});
const Comment = Type.Object({
  id: Type.String(),
  camera_exid: Type.String(),
  project_exid: Type.String(),
  timestamp: Type.String(),
  content: Type.String(),
  position2d: Type.Object({ x: Type.Number(), y: Type.Number() }),
  creator_email: Nullable(Type.String()),
  creator_name: Nullable(Type.String()),
  archived: Type.Boolean(),
  archived_at: Nullable(Type.String()),
  mentions: Type.Array(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export const commentRoutes = defineRoutes('comment-routes', ['comments'], async (fastify, { comments }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['comments'];
  const read = scoped(['project:comments'], { project: fromPathProject });
  const write = scoped(['project:comments'], { project: fromPathProject, role: 'editor' });
  const actor = (req: FastifyRequest) => ({ userId: actingUserId(req), role: allowedProject(req).role });

  app.get(
    '/v2/projects/:exid/comments',
    {
      config: { access: read },
      schema: {
        tags,
        operationId: 'listComments',
        summary: 'Comments of the project, newest recording time first (filters: camera, time range, archived)',
        params: Params,
        querystring: Type.Object(
          {
            camera_exid: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
            from: Type.Optional(Type.String({ maxLength: 40 })),
            to: Type.Optional(Type.String({ maxLength: 40 })),
            archived: Type.Optional(StringEnum(['false', 'true', 'all'], { description: 'false (default): active only; true: archived only; all' })),
            ...PageQuery,
          },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ meta: PageMeta, data: Type.Array(Comment) }), ...errorResponses() },
      },
    },
    async (req) => comments.list(allowedProject(req).project, { ...req.query, page: req.query.page ?? 1, pageSize: req.query.page_size ?? 50 }),
  );

  app.get(
    '/v2/projects/:exid/comments/:id',
    {
      config: { access: read },
      schema: { tags, operationId: 'getComment', summary: 'One comment', params: IdParams, response: { 200: Comment, ...errorResponses() } },
    },
    async (req) => comments.get(allowedProject(req).project, req.params.id),
  );

  app.post(
    '/v2/projects/:exid/comments',
    {
      config: { access: write },
      schema: {
        tags,
        operationId: 'createComment',
        summary: 'Comment on a camera at a moment and a point of the image; @email mentions notify members',
        params: Params,
        body: Type.Object(
          {
            camera_exid: Type.String({ minLength: 1, maxLength: 64 }),
            timestamp: Type.String({ minLength: 1, maxLength: 40 }),
            position2d: Position,
            content: Content,
            mentions: Type.Optional(Mentions),
          },
          { additionalProperties: false },
        ),
        response: { 201: Comment, ...errorResponses() },
      },
    },
    async (req, reply) => reply.code(201).send(await comments.create(allowedProject(req).project, actor(req), req.body)),
  );

  app.patch(
    '/v2/projects/:exid/comments/:id',
    {
      config: { access: write },
      schema: {
        tags,
        operationId: 'updateComment',
        summary: 'Edit the text or position, archive or unarchive (the author or a project admin)',
        params: IdParams,
        body: Type.Object(
          { content: Type.Optional(Content), position2d: Type.Optional(Position), archived: Type.Optional(Type.Boolean()), mentions: Type.Optional(Mentions) },
          { additionalProperties: false, minProperties: 1 },
        ),
        response: { 200: Comment, ...errorResponses() },
      },
    },
    async (req) => comments.update(allowedProject(req).project, actor(req), req.params.id, req.body),
  );

  app.delete(
    '/v2/projects/:exid/comments/:id',
    {
      config: { access: write },
      schema: {
        tags,
        operationId: 'deleteComment',
        summary: 'Delete a comment (the author or a project admin)',
        params: IdParams,
        response: { 204: Type.Null(), ...errorResponses() },
      },
    },
    async (req, reply) => {
      await comments.delete(allowedProject(req).project, actor(req), req.params.id);
      return reply.code(204).send(null);
    },
  );
});
