import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { fromPathCamera, scoped } from '../access/index.js';
import { errorResponses, StringEnum } from '../../lib/http/schemas.js';
import { MAX_PAGE_SIZE, PageMeta } from '../../lib/http/pagination.js';
import { actingUserId } from '../http/index.js';
import { BimCapture, BimLayer, BimPending, CameraParameters, CameraParametersBody } from './bim-records.js';
import { PENDING_STATUSES } from './bim-tables.js';
import { uploadBodyLimit } from './bim-image.js';
import { sendImage, wantsImage } from './image-reply.js';
import { defineRoutes } from '../plugins/feature.js';

const CameraExid = Type.String({ minLength: 1, maxLength: 64 });
const Id = Type.String({ pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' });
const CameraParams = Type.Object({ camera_exid: CameraExid });
const DateText = Type.String({ minLength: 1, maxLength: 40 });
const DateValue = Type.Union([DateText, Type.Integer({ minimum: 0 })], { description: 'ISO 8601 (with a zone, or a date) or Unix seconds' });
const Format = Type.Optional(StringEnum(['json', 'image'], { description: 'json (default) or image; without it, the Accept header decides' }));
const Binary = Type.String({ format: 'binary' });
const ImageText = Type.String({ minLength: 1, description: 'Base64 image (JPEG, PNG or WebP; a data: URI prefix is accepted)' });

const CaptureListQuery = Type.Object(
  {
    from: Type.Optional(DateText),
    to: Type.Optional(DateText),
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
    page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, description: 'Default 50' })),
    sort: Type.Optional(StringEnum(['desc', 'asc'], { description: 'By captured_at; default desc' })),
  },
  { additionalProperties: false },
);
const UploadBody = Type.Object(
  {
    captured_at: Type.Optional(DateValue),
    image: ImageText,
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    pending_id: Type.Optional(Id),
  },
  { additionalProperties: false, description: 'captured_at is required unless pending_id names the request this render answers (its date is used)' },
);
const PendingQuery = Type.Object(
  { status: Type.Optional(StringEnum([...PENDING_STATUSES, 'all'], { description: 'Default: pending, processing and failed' })) },
  { additionalProperties: false },
);
const PendingBody = Type.Object(
  {
    id: Type.Optional(Id),
    requested_for: Type.Optional(DateValue),
    note: Type.Optional(Type.String({ maxLength: 1000 })),
    status: Type.Optional(StringEnum(['pending', 'processing', 'failed'])),
    message: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  {
    additionalProperties: false,
    description: 'Without id: a new request for requested_for (201). With id: a progress report (status, message) on that request (200).',
  },
);
const LayerBody = (imageRequired: boolean) =>
  Type.Object(
    {
      name: Type.String({ minLength: 1, maxLength: 200 }),
      image: imageRequired ? ImageText : Type.Optional(ImageText),
      opacity: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'Default 1' })),
      z_index: Type.Optional(Type.Integer({ minimum: -10_000, maximum: 10_000, description: 'Default 0' })),
      visible: Type.Optional(Type.Boolean({ description: 'Default true' })),
      from_date: Type.Optional(Type.Union([DateValue, Type.Null()])),
      to_date: Type.Optional(Type.Union([DateValue, Type.Null()])),
    },
    { additionalProperties: false },
  );
const LayerParams = Type.Object({ camera_exid: CameraExid, id: Id });
const LayerListQuery = Type.Object(
  { date: Type.Optional(DateText), visible: Type.Optional(Type.Boolean()) },
  { additionalProperties: false, description: 'date: only layers whose range contains it' },
);
const jsonOrImage = <T extends Parameters<typeof Type.Array>[0]>(json: T, what: string) => ({
  description: `${what} as JSON, or its image (JPEG, PNG or WebP as uploaded)`,
  content: { 'application/json': { schema: json }, 'image/png': { schema: Binary }, 'image/jpeg': { schema: Binary }, 'image/webp': { schema: Binary } },
});

export const bimRoutes = defineRoutes('bim-routes', ['bim', 'config'], async (fastify, { bim, config }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { captures, layers } = bim;
  const bodyLimit = uploadBodyLimit(config.bim, config.bodyLimit);
  const tags = ['bim'];
  const read = scoped(['project:bim'], { project: fromPathCamera, role: 'viewer' });
  const write = scoped(['project:bim'], { project: fromPathCamera, role: 'editor' });

  app.get(
    '/v2/cameras/:camera_exid/bim',
    {
      config: { access: read },
      schema: {
        tags,
        operationId: 'listBimCaptures',
        summary: 'BIM captures of a camera (model renders by date), paginated',
        params: CameraParams,
        querystring: CaptureListQuery,
        response: { 200: Type.Object({ meta: PageMeta, data: Type.Array(BimCapture) }), ...errorResponses() },
      },
    },
    async (req) => captures.list(req.params.camera_exid, req.query),
  );

  app.post(
    '/v2/cameras/:camera_exid/bim',
    {
      bodyLimit,
      config: { access: write },
      schema: {
        tags,
        operationId: 'uploadBimCapture',
        summary: 'Upload a BIM render for a date (one per date)',
        params: CameraParams,
        body: UploadBody,
        response: { 201: BimCapture, ...errorResponses(409, 415) },
      },
    },
    async (req, reply) => reply.code(201).send(await captures.upload(req.params.camera_exid, actingUserId(req), req.body)),
  );

  app.get(
    '/v2/cameras/:camera_exid/bim/pending',
    {
      config: { access: read },
      schema: {
        tags,
        operationId: 'listBimPending',
        summary: 'BIM renders requested and not made yet, with their status',
        params: CameraParams,
        querystring: PendingQuery,
        response: { 200: Type.Object({ data: Type.Array(BimPending) }), ...errorResponses() },
      },
    },
    async (req) => captures.listPending(req.params.camera_exid, req.query.status),
  );

  app.post(
    '/v2/cameras/:camera_exid/bim/pending',
    {
      config: { access: write },
      schema: {
        tags,
        operationId: 'saveBimPending',
        summary: 'Request a BIM render for a date, or report a request’s progress',
        params: CameraParams,
        body: PendingBody,
        response: { 200: BimPending, 201: BimPending, ...errorResponses(409) },
      },
    },
    async (req, reply) => {
      const { created, pending } = await captures.savePending(req.params.camera_exid, actingUserId(req), req.body);
      return reply.code(created ? 201 : 200).send(pending);
    },
  );

  app.get(
    '/v2/cameras/:camera_exid/bim/camera-parameters',
    {
      config: { access: read },
      schema: {
        tags,
        operationId: 'getBimCameraParameters',
        summary: 'The camera’s pose and lens for the BIM overlay',
        params: CameraParams,
        response: { 200: CameraParameters, ...errorResponses() },
      },
    },
    async (req) => captures.parameters(req.params.camera_exid),
  );

  app.post(
    '/v2/cameras/:camera_exid/bim/camera-parameters',
    {
      config: { access: write },
      schema: {
        tags,
        operationId: 'setBimCameraParameters',
        summary: 'Set the camera’s pose and lens for the BIM overlay (replaces them)',
        params: CameraParams,
        body: CameraParametersBody,
        response: { 200: CameraParameters, ...errorResponses() },
      },
    },
    async (req) => captures.setParameters(req.params.camera_exid, actingUserId(req), req.body),
  );

  // After the static sub-paths (the router prefers them anyway). GET and DELETE share one URL pattern, so
  // they share the parameter's name too (OpenAPI treats differently named templates as the same path):
  // GET reads it as a date, DELETE as a capture's id.
  app.get(
    '/v2/cameras/:camera_exid/bim/:capture',
    {
      config: { access: read },
      schema: {
        tags,
        operationId: 'getBimCaptureNearest',
        summary: 'The BIM capture nearest a date (ISO 8601 or Unix seconds): JSON, or the image with ?format=image or Accept: image/*',
        params: Type.Object({ camera_exid: CameraExid, capture: Type.String({ ...DateText, description: 'A date (ISO 8601 or Unix seconds)' }) }),
        querystring: Type.Object({ format: Format }, { additionalProperties: false }),
        response: { 200: jsonOrImage(BimCapture, 'The capture'), 304: Type.Null(), ...errorResponses() },
      },
    },
    async (req, reply) => {
      const { image_key, ...capture } = await captures.nearest(req.params.camera_exid, req.params.capture);
      reply.header('x-bim-date', capture.captured_at);
      if (!wantsImage(req, capture.content_type, req.query.format)) return reply.header('vary', 'accept').send(capture);
      return sendImage(req, reply, `"bim-${capture.id}"`, () => captures.image({ image_key, content_type: capture.content_type }));
    },
  );

  app.delete(
    '/v2/cameras/:camera_exid/bim/:capture',
    {
      config: { access: write },
      schema: {
        tags,
        operationId: 'deleteBimCapture',
        summary: 'Delete a BIM capture and its image',
        params: Type.Object({ camera_exid: CameraExid, capture: Type.String({ ...Id, description: "The capture's id" }) }),
        response: { 204: Type.Null(), ...errorResponses() },
      },
    },
    async (req, reply) => {
      await captures.remove(req.params.camera_exid, req.params.capture);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/v2/cameras/:camera_exid/layers',
    {
      config: { access: read },
      schema: {
        tags,
        operationId: 'listBimLayers',
        summary: 'Overlay layers of a camera, in drawing order (z_index)',
        params: CameraParams,
        querystring: LayerListQuery,
        response: { 200: Type.Object({ data: Type.Array(BimLayer) }), ...errorResponses() },
      },
    },
    async (req) => layers.list(req.params.camera_exid, req.query),
  );

  app.post(
    '/v2/cameras/:camera_exid/layers',
    {
      bodyLimit,
      config: { access: write },
      schema: {
        tags,
        operationId: 'createBimLayer',
        summary: 'Add an overlay layer (an image with opacity, order, visibility, dates)',
        params: CameraParams,
        body: LayerBody(true),
        response: { 201: BimLayer, ...errorResponses(415) },
      },
    },
    async (req, reply) => reply.code(201).send(await layers.create(req.params.camera_exid, actingUserId(req), req.body)),
  );

  app.get(
    '/v2/cameras/:camera_exid/layers/:id',
    {
      config: { access: read },
      schema: {
        tags,
        operationId: 'getBimLayer',
        summary: 'One overlay layer: JSON, or its image with ?format=image or Accept: image/*',
        params: LayerParams,
        querystring: Type.Object({ format: Format }, { additionalProperties: false }),
        response: { 200: jsonOrImage(BimLayer, 'The layer'), 304: Type.Null(), ...errorResponses() },
      },
    },
    async (req, reply) => {
      const found = await layers.get(req.params.camera_exid, req.params.id);
      if (!wantsImage(req, found.content_type, req.query.format)) return reply.header('vary', 'accept').send(found.layer);
      return sendImage(req, reply, `"layer-${found.image_key.split('/').pop()}"`, () => layers.image(found));
    },
  );

  app.put(
    '/v2/cameras/:camera_exid/layers/:id',
    {
      bodyLimit,
      config: { access: write },
      schema: {
        tags,
        operationId: 'replaceBimLayer',
        summary: 'Replace an overlay layer (every field; leave image out to keep the current one)',
        params: LayerParams,
        body: LayerBody(false),
        response: { 200: BimLayer, ...errorResponses(415) },
      },
    },
    async (req) => layers.replace(req.params.camera_exid, req.params.id, req.body),
  );

  app.delete(
    '/v2/cameras/:camera_exid/layers/:id',
    {
      config: { access: write },
      schema: {
        tags,
        operationId: 'deleteBimLayer',
        summary: 'Delete an overlay layer and its image',
        params: LayerParams,
        response: { 204: Type.Null(), ...errorResponses() },
      },
    },
    async (req, reply) => {
      await layers.remove(req.params.camera_exid, req.params.id);
      return reply.code(204).send(null);
    },
  );
});
