// Project logos and the project thumbnail (project:settings): read by every member, changed
// by admins. Images travel as base64 (or a data URI) in JSON and are served back as image bytes.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { fromPathProject, scoped, type Role } from '../access/index.js';
import { errorResponses, StringEnum } from '../../lib/http/schemas.js';
import { actingUserId, allowedProject } from '../http/index.js';
import type { StoredObject } from '../storage/index.js';
import { Logo, Thumbnail } from './project-images-service.js';
import { LOGO_POSITIONS } from '../projects/index.js';
import { uploadBodyLimit } from './uploaded-image.js';
import { defineRoutes } from '../plugins/feature.js';

const Params = Type.Object({ exid: Type.String({ minLength: 1, maxLength: 64 }) });
const LogoParams = Type.Object({ exid: Type.String({ minLength: 1, maxLength: 64 }), logo_id: Type.String({ minLength: 1, maxLength: 64 }) });
const Image = Type.String({ minLength: 1, description: 'The image (JPEG, PNG or WebP) in base64, or as a data URI' });
const Position = StringEnum(LOGO_POSITIONS, { description: 'Where overlays place the logo (default top-right)' });
const Binary = Type.String({ format: 'binary' });

function sendImage(req: FastifyRequest, reply: FastifyReply, object: StoredObject, etag: string): FastifyReply {
  reply.header('etag', etag).header('cache-control', 'private, no-cache');
  const inm = req.headers['if-none-match'];
  if (inm?.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) {
    object.body.destroy();
    return reply.code(304).send();
  }
  return reply.type(object.contentType).header('content-length', object.size).send(object.body);
}

export const projectImageRoutes = defineRoutes('project-image-routes', ['projectImages', 'config'], async (fastify, { projectImages, config }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['settings'];
  const settings = (role: Role) => ({ access: scoped(['project:settings'], { project: fromPathProject, role }) });
  const bodyLimit = uploadBodyLimit(config.settingsImageMaxBytes);

  // ---- logos
  app.get(
    '/v2/projects/:exid/logos',
    {
      config: settings('viewer'),
      schema: {
        tags,
        operationId: 'listProjectLogos',
        summary: 'The project’s logos',
        params: Params,
        response: { 200: Type.Array(Logo), ...errorResponses() },
      },
    },
    async (req) => projectImages.listLogos(allowedProject(req).project),
  );

  app.post(
    '/v2/projects/:exid/logos',
    {
      config: settings('admin'),
      bodyLimit,
      schema: {
        tags,
        operationId: 'createProjectLogo',
        summary: 'Upload a logo (checked, re-encoded as PNG, at most 1024 px a side; OVERLOOK_SETTINGS_IMAGE_MAX_BYTES)',
        params: Params,
        body: Type.Object(
          { name: Type.String({ minLength: 1, maxLength: 200 }), image: Image, position: Type.Optional(Position) },
          { additionalProperties: false },
        ),
        response: { 201: Logo, ...errorResponses(409, 413) },
      },
    },
    async (req, reply) => reply.code(201).send(await projectImages.createLogo(allowedProject(req).project, actingUserId(req), req.body)),
  );

  app.get(
    '/v2/projects/:exid/logos/:logo_id',
    {
      config: settings('viewer'),
      schema: { tags, operationId: 'getProjectLogo', summary: 'One of a project’s logos', params: LogoParams, response: { 200: Logo, ...errorResponses() } },
    },
    async (req) => projectImages.getLogo(allowedProject(req).project, req.params.logo_id),
  );

  app.get(
    '/v2/projects/:exid/logos/:logo_id/image',
    {
      config: settings('viewer'),
      schema: {
        tags,
        operationId: 'getProjectLogoImage',
        summary: 'The logo as PNG (ETag; 304 on If-None-Match)',
        params: LogoParams,
        response: { 200: Binary, 304: Type.Null(), ...errorResponses() },
      },
    },
    async (req, reply) => {
      const { object, etag } = await projectImages.logoImage(allowedProject(req).project, req.params.logo_id);
      return sendImage(req, reply, object, etag);
    },
  );

  app.patch(
    '/v2/projects/:exid/logos/:logo_id',
    {
      config: settings('admin'),
      bodyLimit,
      schema: {
        tags,
        operationId: 'updateProjectLogo',
        summary: 'Rename, move or replace the image of a logo',
        params: LogoParams,
        body: Type.Object(
          { name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })), image: Type.Optional(Image), position: Type.Optional(Position) },
          { additionalProperties: false, minProperties: 1 },
        ),
        response: { 200: Logo, ...errorResponses(413) },
      },
    },
    async (req) => projectImages.updateLogo(allowedProject(req).project, req.params.logo_id, req.body),
  );

  app.delete(
    '/v2/projects/:exid/logos/:logo_id',
    {
      config: settings('admin'),
      schema: {
        tags,
        operationId: 'deleteProjectLogo',
        summary: 'Delete one of a project’s logos',
        params: LogoParams,
        response: { 204: Type.Null(), ...errorResponses() },
      },
    },
    async (req, reply) => {
      await projectImages.deleteLogo(allowedProject(req).project, req.params.logo_id);
      return reply.code(204).send(null);
    },
  );

  // ---- thumbnail
  app.get(
    '/v2/projects/:exid/thumbnail',
    {
      config: settings('viewer'),
      schema: {
        tags,
        operationId: 'getProjectThumbnail',
        summary: 'The project’s thumbnail as JPEG (x-thumbnail-source: upload or camera; ETag)',
        params: Params,
        response: { 200: Binary, 304: Type.Null(), ...errorResponses() },
      },
    },
    async (req, reply) => {
      const project = allowedProject(req).project;
      const info = await projectImages.thumbnailInfo(project);
      const { object, etag } = await projectImages.thumbnailImage(project);
      reply.header('x-thumbnail-source', info.source).header('last-modified', new Date(info.updated_at).toUTCString());
      return sendImage(req, reply, object, etag);
    },
  );

  app.put(
    '/v2/projects/:exid/thumbnail',
    {
      config: settings('admin'),
      bodyLimit,
      schema: {
        tags,
        operationId: 'uploadProjectThumbnail',
        summary: 'Set the thumbnail from an uploaded image (re-encoded as JPEG, at most 1280 px wide)',
        params: Params,
        body: Type.Object({ image: Image }, { additionalProperties: false }),
        response: { 200: Thumbnail, ...errorResponses(413) },
      },
    },
    async (req) => projectImages.uploadThumbnail(allowedProject(req).project, actingUserId(req), req.body.image),
  );

  app.post(
    '/v2/projects/:exid/thumbnail/from-camera',
    {
      config: settings('admin'),
      schema: {
        tags,
        operationId: 'setProjectThumbnailFromCamera',
        summary: 'Set the thumbnail from the latest recorded frame of one of the project’s cameras (404 when it has none)',
        params: Params,
        body: Type.Object({ camera_exid: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false }),
        response: { 200: Thumbnail, ...errorResponses() },
      },
    },
    async (req) => projectImages.thumbnailFromCamera(allowedProject(req).project, actingUserId(req), req.body.camera_exid),
  );

  app.delete(
    '/v2/projects/:exid/thumbnail',
    {
      config: settings('admin'),
      schema: {
        tags,
        operationId: 'deleteProjectThumbnail',
        summary: 'Delete a project’s thumbnail',
        params: Params,
        response: { 204: Type.Null(), ...errorResponses() },
      },
    },
    async (req, reply) => {
      await projectImages.deleteThumbnail(allowedProject(req).project);
      return reply.code(204).send(null);
    },
  );
});
