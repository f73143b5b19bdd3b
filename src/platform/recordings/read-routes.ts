import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { fromPathCamera, scoped } from '../access/index.js';
import { errorResponses, Nullable, StringEnum } from '../../lib/http/schemas.js';
import { MAX_LIST_LIMIT } from './snapshot-reader.js';
import { sendFrame, sendThumbnail } from './image-reply.js';
import { defineRoutes } from '../plugins/feature.js';

const CameraExid = Type.String({ minLength: 1, maxLength: 64 });
const CameraParams = Type.Object({ camera_exid: CameraExid });
const TimestampParams = Type.Object({
  camera_exid: CameraExid,
  timestamp: Type.String({ minLength: 1, maxLength: 64, description: 'ISO 8601 (no offset = UTC) or Unix seconds' }),
});
const Part = (description: string) => Type.String({ minLength: 1, maxLength: 8, description });
const MonthParams = Type.Object({ camera_exid: CameraExid, year: Part('e.g. 2026'), month: Part('1–12') });
const DayParams = Type.Object({ camera_exid: CameraExid, year: Part('e.g. 2026'), month: Part('1–12'), day: Part('1–31') });
const ViewQuery = Type.Object({ view: Type.Optional(Type.Boolean({ description: 'true: answer with the JPEG itself, like Accept: image/jpeg' })) });

const ListQuery = Type.Object({
  from: Type.Optional(Type.String({ maxLength: 64, description: 'Frames taken at or after this time (ISO 8601 or Unix seconds)' })),
  to: Type.Optional(Type.String({ maxLength: 64, description: 'Frames taken at or before this time; a time without milliseconds includes its whole second' })),
  order: Type.Optional(StringEnum(['asc', 'desc'], { description: 'asc: oldest first; desc (default): newest first' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LIST_LIMIT, default: 100 })),
  cursor: Type.Optional(Type.String({ maxLength: 128, description: 'meta.next_cursor of the previous page' })),
});
const ListItem = Type.Object({
  created_at: Type.String({ format: 'date-time', description: 'When the frame was taken (UTC, milliseconds)' }),
  size: Type.Integer(),
  source: Type.String({ description: 'schedule | manual' }),
  note: Nullable(Type.String()),
  url: Type.String({ description: 'The frame: JSON with a data URI, or the JPEG with ?view=true' }),
});
const ListPage = Type.Object({
  data: Type.Array(ListItem),
  meta: Type.Object({
    total_count: Type.Integer({ description: 'Frames in the from/to range' }),
    limit: Type.Integer(),
    order: Type.String(),
    next_cursor: Nullable(Type.String()),
  }),
});
const FrameJson = Type.Object({
  created_at: Type.String({ format: 'date-time' }),
  data: Type.String({ description: 'data:image/jpeg;base64,…' }),
  source: Type.String(),
  note: Nullable(Type.String()),
});
const frameResponse = {
  200: {
    description: 'The frame as JSON with a data URI, or the JPEG itself with Accept: image/jpeg or ?view=true',
    content: { 'application/json': { schema: FrameJson }, 'image/jpeg': { schema: Type.String({ format: 'binary' }) } },
  },
  304: { description: 'Not modified (If-None-Match)', type: 'null' },
  ...errorResponses(),
};

export const recordingReadRoutes = defineRoutes('recording-read-routes', ['snapshotReader'], async (fastify, { snapshotReader: reader }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['recordings'];
  const access = scoped(['camera:recordings'], { project: fromPathCamera });
  const base = '/v2/cameras/:camera_exid/recordings/snapshots';

  app.get(
    base,
    {
      config: { access },
      schema: {
        tags,
        operationId: 'listRecordedSnapshots',
        summary: 'A page of the camera’s recorded frames in a time range, newest (or oldest) first; continue with meta.next_cursor',
        params: CameraParams,
        querystring: ListQuery,
        response: { 200: ListPage, ...errorResponses() },
      },
    },
    async (req) => {
      const order = req.query.order ?? 'desc';
      const limit = req.query.limit ?? 100;
      const page = await reader.list(req.params.camera_exid, { from: req.query.from, to: req.query.to, cursor: req.query.cursor, order, limit });
      const prefix = `/v2/cameras/${encodeURIComponent(req.params.camera_exid)}/recordings/snapshots/`;
      return {
        data: page.entries.map((e) => ({ created_at: e.takenAt, size: e.size, source: e.source, note: e.note, url: prefix + e.takenAt })),
        meta: { total_count: page.totalCount, limit, order, next_cursor: page.nextCursor },
      };
    },
  );

  for (const [edge, summary] of [
    ['latest', 'The most recent recorded frame'],
    ['oldest', 'The oldest recorded frame still kept'],
  ] as const) {
    app.get(
      `${base}/${edge}`,
      {
        config: { access },
        schema: {
          tags,
          operationId: `get${edge === 'latest' ? 'Latest' : 'Oldest'}RecordedSnapshot`,
          summary,
          params: CameraParams,
          querystring: ViewQuery,
          response: frameResponse,
        },
      },
      async (req, reply) => {
        const entry = edge === 'latest' ? await reader.latest(req.params.camera_exid) : await reader.oldest(req.params.camera_exid);
        return sendFrame(req, reply, reader, entry, { view: req.query.view, caching: 'revalidate' });
      },
    );
  }

  app.get(
    `${base}/:timestamp`,
    {
      config: { access },
      schema: {
        tags,
        operationId: 'getRecordedSnapshot',
        summary: 'The frame taken at that time: the first one within the precision given (a millisecond, second, minute or day)',
        params: TimestampParams,
        querystring: ViewQuery,
        response: frameResponse,
      },
    },
    async (req, reply) => {
      const entry = await reader.at(req.params.camera_exid, req.params.timestamp);
      return sendFrame(req, reply, reader, entry, { view: req.query.view, caching: 'immutable' });
    },
  );

  app.get(
    `${base}/:timestamp/nearest`,
    {
      config: { access },
      schema: {
        tags,
        operationId: 'getNearestRecordedSnapshot',
        summary: 'The recorded frame closest to that time, before or after it (the earlier on a tie)',
        params: TimestampParams,
        querystring: ViewQuery,
        response: frameResponse,
      },
    },
    async (req, reply) => {
      const entry = await reader.nearest(req.params.camera_exid, req.params.timestamp);
      return sendFrame(req, reply, reader, entry, { view: req.query.view, caching: 'revalidate' });
    },
  );

  app.get(
    `${base}/:year/:month/days`,
    {
      config: { access },
      schema: {
        tags,
        operationId: 'listRecordedDays',
        summary: 'The days of a month holding recorded frames, in the camera’s time zone',
        params: MonthParams,
        response: { 200: Type.Object({ days: Type.Array(Type.Integer()) }), ...errorResponses() },
      },
    },
    async (req) => ({ days: await reader.days(req.params.camera_exid, req.params.year, req.params.month) }),
  );

  app.get(
    `${base}/:year/:month/:day/hours`,
    {
      config: { access },
      schema: {
        tags,
        operationId: 'listRecordedHours',
        summary: 'The hours (0–23) of a day holding recorded frames, in the camera’s time zone',
        params: DayParams,
        response: { 200: Type.Object({ hours: Type.Array(Type.Integer()) }), ...errorResponses() },
      },
    },
    async (req) => ({ hours: await reader.hours(req.params.camera_exid, req.params.year, req.params.month, req.params.day) }),
  );

  app.get(
    '/v2/cameras/:camera_exid/thumbnail',
    {
      config: { access },
      schema: {
        tags,
        operationId: 'getCameraThumbnail',
        summary: 'The latest recorded frame, 320 pixels wide (JPEG)',
        params: CameraParams,
        response: {
          200: { description: 'JPEG', content: { 'image/jpeg': { schema: Type.String({ format: 'binary' }) } } },
          304: { description: 'Not modified (If-None-Match)', type: 'null' },
          ...errorResponses(),
        },
      },
    },
    async (req, reply) => {
      const { entry, jpeg } = await reader.thumbnail(req.params.camera_exid);
      return sendThumbnail(req, reply, entry, jpeg);
    },
  );
});
