import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { fromBodyProject, fromRecord, listOfProjects, scoped } from '../access/index.js';
import { errorResponses, Nullable } from '../../lib/http/schemas.js';
import { actingUserId, allowedProject } from '../http/index.js';
import { MAX_GRID } from './video-walls-service.js';
import { defineRoutes } from '../plugins/feature.js';

const Params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const GridSize = Type.Integer({ minimum: 1, maximum: MAX_GRID });
const Cell = Type.Integer({ minimum: 0, maximum: MAX_GRID - 1 });
const TileIn = Type.Object({ row: Cell, column: Cell, camera_exid: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });
const Tiles = Type.Array(TileIn, { maxItems: MAX_GRID * MAX_GRID });
const Name = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' });
const Wall = Type.Object({
  id: Type.String(),
  name: Type.String(),
  project_exid: Type.String(),
  rows: Type.Integer(),
  columns: Type.Integer(),
  tiles: Type.Array(Type.Object({ row: Type.Integer(), column: Type.Integer(), camera_exid: Type.String(), camera_name: Type.String() })),
  created_by_email: Nullable(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export const videoWallRoutes = defineRoutes('video-wall-routes', ['videoWalls', 'directory'], async (fastify, { videoWalls, directory }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['video walls'];
  const ofWall = fromRecord(async (req) => videoWalls.projectOf((req.params as { id?: string }).id ?? ''));

  app.get(
    '/v2/video-walls',
    {
      config: { access: scoped(['project:video_wall'], { project: listOfProjects }) },
      schema: {
        tags,
        operationId: 'listVideoWalls',
        summary: 'Video walls of the caller’s projects (optionally one project’s)',
        querystring: Type.Object({ project_exid: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) }, { additionalProperties: false }),
        response: { 200: Type.Array(Wall), ...errorResponses() },
      },
    },
    async (req) => {
      const walls = await videoWalls.list([...(await directory.visibleProjects(req.principal)).keys()]);
      return req.query.project_exid ? walls.filter((w) => w.project_exid === req.query.project_exid) : walls;
    },
  );

  app.post(
    '/v2/video-walls',
    {
      config: { access: scoped(['project:video_wall'], { project: fromBodyProject, role: 'editor' }) },
      schema: {
        tags,
        operationId: 'createVideoWall',
        summary: 'Create a wall: a grid (rows × columns, at most 8 × 8) of tiles, each a camera of the project',
        body: Type.Object(
          { project_exid: Type.String({ minLength: 1, maxLength: 64 }), name: Name, rows: GridSize, columns: GridSize, tiles: Type.Optional(Tiles) },
          { additionalProperties: false },
        ),
        response: { 201: Wall, ...errorResponses() },
      },
    },
    async (req, reply) => {
      const { project_exid: _p, ...input } = req.body;
      return reply.code(201).send(await videoWalls.create(actingUserId(req), allowedProject(req).project.id, input));
    },
  );

  app.get(
    '/v2/video-walls/:id',
    {
      config: { access: scoped(['project:video_wall'], { project: ofWall }) },
      schema: { tags, operationId: 'getVideoWall', summary: 'One video wall', params: Params, response: { 200: Wall, ...errorResponses() } },
    },
    async (req) => videoWalls.get(req.params.id),
  );

  app.patch(
    '/v2/video-walls/:id',
    {
      config: { access: scoped(['project:video_wall'], { project: ofWall, role: 'editor' }) },
      schema: {
        tags,
        operationId: 'updateVideoWall',
        summary: 'Rename, resize, or replace the tiles (tiles, when given, replace the whole layout)',
        params: Params,
        body: Type.Object(
          { name: Type.Optional(Name), rows: Type.Optional(GridSize), columns: Type.Optional(GridSize), tiles: Type.Optional(Tiles) },
          { additionalProperties: false, minProperties: 1 },
        ),
        response: { 200: Wall, ...errorResponses() },
      },
    },
    async (req) => videoWalls.update(req.params.id, req.body),
  );

  app.delete(
    '/v2/video-walls/:id',
    {
      config: { access: scoped(['project:video_wall'], { project: ofWall, role: 'editor' }) },
      schema: { tags, operationId: 'deleteVideoWall', summary: 'Delete a video wall', params: Params, response: { 204: Type.Null(), ...errorResponses() } },
    },
    async (req, reply) => {
      await videoWalls.delete(req.params.id);
      return reply.code(204).send(null);
    },
  );
});
