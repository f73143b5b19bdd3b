import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { wantsJpeg } from '../../lib/http/accept.js';
import { fromPathCamera, fromPathProject, peopleOnly, scoped, tokenOnly } from '../access/index.js';
import { errorResponses, Nullable, StringEnum } from '../../lib/http/schemas.js';
import { PageMeta, MAX_PAGE_SIZE } from '../../lib/http/pagination.js';
import { actingUserId, allowedProject } from '../http/index.js';
import { ApiError } from '../../lib/errors.js';
import { AnprEvent, AnprEventWithImage, MatchedEvent } from './anpr-record.js';
import { BBOX_UNITS, DIRECTIONS } from './anpr-tables.js';
import { toDataUri } from './plate-image.js';
import { defineRoutes } from '../plugins/feature.js';

const CameraParams = Type.Object({ camera_exid: Type.String({ minLength: 1, maxLength: 64 }) });
const ProjectParams = Type.Object({ exid: Type.String({ minLength: 1, maxLength: 64 }) });
// Ids are UUIDs: anything else is a 400 before any lookup.
const Id = Type.String({ pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' });
const EventParams = Type.Object({ camera_exid: CameraParams.properties.camera_exid, eventid: Id });
const TokenParams = Type.Object({ camera_exid: CameraParams.properties.camera_exid, token_id: Id });
const PlateText = Type.String({ minLength: 1, maxLength: 64 });

const filters = {
  plate: Type.Optional(
    Type.String({ minLength: 1, maxLength: 65, description: 'Exact plate (spaces, dashes and case ignored), or a prefix ending in * (AB12*)' }),
  ),
  direction: Type.Optional(StringEnum(DIRECTIONS)),
  from: Type.Optional(Type.String({ maxLength: 40, description: 'ISO 8601, inclusive' })),
  to: Type.Optional(Type.String({ maxLength: 40, description: 'ISO 8601, inclusive' })),
  min_confidence: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, description: 'Page size, default 50' })),
};
const ListQuery = Type.Object(
  { ...filters, sort: Type.Optional(StringEnum(['desc', 'asc'], { description: 'By capture time; default desc (newest first)' })) },
  { additionalProperties: false },
);
const PlatesQuery = Type.Object(
  { ...filters, sort: Type.Optional(StringEnum(['last_seen_desc', 'last_seen_asc', 'count_desc', 'count_asc'], { description: 'Default last_seen_desc' })) },
  { additionalProperties: false },
);
const Plate = Type.Object({
  plate: Type.String(),
  count: Type.Integer(),
  first_seen: Type.String({ format: 'date-time' }),
  last_seen: Type.String({ format: 'date-time' }),
  watchlist_label: Nullable(Type.String()),
});
const page = <T extends Parameters<typeof Type.Array>[0]>(item: T) => Type.Object({ meta: PageMeta, data: Type.Array(item) });

const IngestBody = Type.Object(
  {
    plate_number: Type.Optional(PlateText),
    plate: Type.Optional(PlateText),
    capture_time: Type.Optional(Type.Union([Type.String({ maxLength: 40 }), Type.Number()])),
    captured_at: Type.Optional(Type.Union([Type.String({ maxLength: 40 }), Type.Number()])),
    direction: Type.Optional(StringEnum(DIRECTIONS)),
    confidence: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: '0 to 1 (divide a percentage by 100)' })),
    bounding_box: Type.Optional(Type.Array(Type.Number(), { minItems: 4, maxItems: 4, description: '[x1, y1, x2, y2]' })),
    bounding_box_units: Type.Optional(StringEnum(BBOX_UNITS, { description: 'Default pixels; normalized means fractions 0–1 of the frame' })),
    plate_image: Type.Optional(Type.String({ description: 'Base64 JPEG (a data:image/jpeg;base64, prefix is accepted)' })),
    metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  {
    additionalProperties: true,
    description: 'plate_number (or plate) is required. Any other field (list_type, vehicle_type, vehicle_color…) is kept in metadata.',
  },
);

const TokenRecord = Type.Object({
  id: Type.String(),
  name: Type.String(),
  hint: Type.String({ description: 'The first characters of the value' }),
  status: StringEnum(['active', 'revoked']),
  created_at: Type.String({ format: 'date-time' }),
  last_used_at: Nullable(Type.String({ format: 'date-time' })),
  revoked_at: Nullable(Type.String({ format: 'date-time' })),
});
const NewToken = Type.Object({ ...TokenRecord.properties, token: Type.String({ description: 'The token value. Shown this once; only its hash is stored.' }) });
const WatchEntry = Type.Object({ plate: Type.String(), label: Type.String(), created_at: Type.String({ format: 'date-time' }) });

export const anprRoutes = defineRoutes('anpr-routes', ['anpr', 'ingestionTokens', 'cameras'], async (fastify, { anpr, ingestionTokens, cameras }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['anpr'];
  const read = scoped(['camera:recordings'], { project: fromPathCamera });
  const manageTokens = peopleOnly({ project: fromPathCamera, role: 'admin' });

  // Reads. The static sub-paths come before `:eventid` (the router prefers them anyway).
  app.get(
    '/v2/cameras/:camera_exid/anpr',
    {
      config: { access: read },
      schema: {
        tags,
        operationId: 'listAnprEvents',
        summary: 'Number-plate reads of a camera, filtered and paginated',
        params: CameraParams,
        querystring: ListQuery,
        response: { 200: page(AnprEvent), ...errorResponses() },
      },
    },
    async (req) => anpr.list(req.params.camera_exid, req.query),
  );

  app.get(
    '/v2/cameras/:camera_exid/anpr/matched',
    {
      config: { access: read },
      schema: {
        tags,
        operationId: 'listAnprMatchedEvents',
        summary: 'Reads whose plate is on the project’s watch list, with its label',
        params: CameraParams,
        querystring: ListQuery,
        response: { 200: page(MatchedEvent), ...errorResponses() },
      },
    },
    async (req) => anpr.matched(req.params.camera_exid, req.query),
  );

  app.get(
    '/v2/cameras/:camera_exid/anpr/plates',
    {
      config: { access: read },
      schema: {
        tags,
        operationId: 'listAnprPlates',
        summary: 'Distinct plates a camera read, with counts and first/last seen',
        params: CameraParams,
        querystring: PlatesQuery,
        response: { 200: page(Plate), ...errorResponses() },
      },
    },
    async (req) => anpr.plates(req.params.camera_exid, req.query),
  );

  app.get(
    '/v2/cameras/:camera_exid/anpr/:eventid',
    {
      config: { access: read },
      schema: {
        tags,
        operationId: 'getAnprEvent',
        summary: 'One read: JSON with the plate image as a data URI, or the JPEG itself with Accept: image/jpeg',
        params: EventParams,
        response: {
          200: {
            description: 'The event, or its plate JPEG',
            content: {
              'application/json': { schema: AnprEventWithImage },
              'image/jpeg': { schema: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }) },
            },
          },
          ...errorResponses(),
        },
      },
    },
    async (req, reply) => {
      const { event, image } = await anpr.get(req.params.camera_exid, req.params.eventid);
      reply.header('vary', 'accept');
      if (wantsJpeg(req)) {
        if (!image) throw new ApiError('NOT_FOUND', 'This event has no plate image');
        return reply.type('image/jpeg').header('cache-control', 'private, max-age=86400').send(image);
      }
      return reply.type('application/json; charset=utf-8').send({ ...event, plate_image: image ? toDataUri(image) : null });
    },
  );

  // Ingestion, by cameras and recorders.
  app.post(
    '/v2/cameras/:camera_exid/anpr/events',
    {
      config: { access: tokenOnly('ingestion') },
      schema: {
        tags,
        operationId: 'ingestAnprEvent',
        summary: 'A camera or recorder pushes a number-plate read (Authorization: Bearer <ingestion token>, or ?token=)',
        params: CameraParams,
        querystring: Type.Object({ token: Type.Optional(Type.String({ maxLength: 200 })) }, { additionalProperties: false }),
        body: IngestBody,
        response: { 201: AnprEvent, ...errorResponses(415) },
      },
    },
    async (req, reply) => reply.code(201).send(await anpr.ingest(req.params.camera_exid, req.tokenGrant?.subject ?? null, req.body)),
  );

  // Ingestion tokens, managed by the project's admins.
  app.post(
    '/v2/cameras/:camera_exid/anpr/ingestion-tokens',
    {
      config: { access: manageTokens },
      schema: {
        tags,
        operationId: 'createAnprIngestionToken',
        summary: 'Create a token a camera or recorder uses to push ANPR events (the value is shown once)',
        params: CameraParams,
        body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }),
        response: { 201: NewToken, ...errorResponses() },
      },
    },
    async (req, reply) => {
      const camera = await cameras.row(req.params.camera_exid);
      return reply.code(201).send(await ingestionTokens.create(camera.id, actingUserId(req), req.body.name));
    },
  );

  app.get(
    '/v2/cameras/:camera_exid/anpr/ingestion-tokens',
    {
      config: { access: manageTokens },
      schema: {
        tags,
        operationId: 'listAnprIngestionTokens',
        summary: 'The camera’s ingestion tokens (never their values)',
        params: CameraParams,
        response: { 200: Type.Array(TokenRecord), ...errorResponses() },
      },
    },
    async (req) => ingestionTokens.list((await cameras.row(req.params.camera_exid)).id),
  );

  app.delete(
    '/v2/cameras/:camera_exid/anpr/ingestion-tokens/:token_id',
    {
      config: { access: manageTokens },
      schema: {
        tags,
        operationId: 'revokeAnprIngestionToken',
        summary: 'Revoke an ingestion token: it is refused from the next request on',
        params: TokenParams,
        response: { 204: Type.Null(), ...errorResponses() },
      },
    },
    async (req, reply) => {
      await ingestionTokens.revoke((await cameras.row(req.params.camera_exid)).id, req.params.token_id);
      return reply.code(204).send(null);
    },
  );

  // The project's watch list.
  app.get(
    '/v2/projects/:exid/anpr/watchlist',
    {
      config: { access: peopleOnly({ project: fromPathProject }) },
      schema: {
        tags,
        operationId: 'listAnprWatchlist',
        summary: 'Plates the project watches for',
        params: ProjectParams,
        response: { 200: Type.Array(WatchEntry), ...errorResponses() },
      },
    },
    async (req) => anpr.watchlist(allowedProject(req).project.id),
  );

  app.post(
    '/v2/projects/:exid/anpr/watchlist',
    {
      config: { access: peopleOnly({ project: fromPathProject, role: 'admin' }) },
      schema: {
        tags,
        operationId: 'addAnprWatchlistPlate',
        summary: 'Watch for a plate (stored normalised); 409 when it is already listed',
        params: ProjectParams,
        body: Type.Object({ plate: PlateText, label: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }),
        response: { 201: WatchEntry, ...errorResponses(409) },
      },
    },
    async (req, reply) => reply.code(201).send(await anpr.watch(allowedProject(req).project.id, actingUserId(req), req.body)),
  );

  app.delete(
    '/v2/projects/:exid/anpr/watchlist/:plate',
    {
      config: { access: peopleOnly({ project: fromPathProject, role: 'admin' }) },
      schema: {
        tags,
        operationId: 'removeAnprWatchlistPlate',
        summary: 'Stop watching for a plate',
        params: Type.Object({ exid: ProjectParams.properties.exid, plate: PlateText }),
        response: { 204: Type.Null(), ...errorResponses() },
      },
    },
    async (req, reply) => {
      await anpr.unwatch(allowedProject(req).project.id, req.params.plate);
      return reply.code(204).send(null);
    },
  );
});
