// Recordings: the stored segments ("chunks") across devices, a device's runs (continuous periods),
// and one stored segment as a file.
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ApiError, validation } from '../../lib/errors.js';
import { PageMeta, PageQuery } from '../../lib/http/pagination.js';
import { errorResponses } from '../../lib/http/schemas.js';
import { Binary, StreamQuery, timeParam } from '../http/index.js';
import { DeviceId } from '../devices/index.js';

const Chunk = Type.Object({
  id: Type.String(),
  device_id: Type.String(),
  stream: Type.String(),
  run_id: Type.String(),
  start_date: Type.String(),
  end_date: Type.String(),
  duration_ms: Type.Integer(),
  size: Type.Integer(),
});
const Range = { start_date: Type.Optional(Type.String({ maxLength: 40 })), end_date: Type.Optional(Type.String({ maxLength: 40 })) };

function range(q: { start_date?: string; end_date?: string }) {
  const parse = (v: string | undefined, f: string) => {
    if (v === undefined) return undefined;
    return timeParam(f, v).toISOString();
  };
  const r = { from: parse(q.start_date, 'start_date'), to: parse(q.end_date, 'end_date') };
  if (r.from && r.to && r.from > r.to) throw validation('start_date', 'must not be after end_date');
  return r;
}

export async function recordingRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { index, devices, config } = app.recorder;
  const tags = ['recordings'];

  app.get(
    '/api/recordings/chunks',
    {
      config: { auth: 'read' },
      schema: {
        tags,
        operationId: 'listChunks',
        summary: 'Stored segments across devices, oldest first',
        querystring: Type.Object({ device_id: Type.Optional(Type.String({ maxLength: 64 })), ...StreamQuery, ...Range, ...PageQuery }),
        response: { 200: Type.Object({ meta: PageMeta, data: Type.Array(Chunk) }), ...errorResponses() },
      },
    },
    async (req) => {
      const r = range(req.query);
      const page = await index.chunks({
        deviceId: req.query.device_id,
        stream: req.query.stream,
        from: r.from,
        to: r.to,
        page: req.query.page ?? 1,
        pageSize: req.query.page_size ?? 50,
      });
      return { meta: page.meta, data: page.data.map(({ path: _p, ...c }) => c) };
    },
  );

  app.get(
    '/api/devices/:id/recordings',
    {
      config: { auth: 'read' },
      schema: {
        tags,
        operationId: 'listRuns',
        summary: 'Continuous recording periods ("runs"); a run ends on any discontinuity',
        params: DeviceId,
        querystring: Type.Object({ ...StreamQuery, ...Range }),
        response: {
          200: Type.Array(Type.Object({ id: Type.String(), start_date: Type.String(), end_date: Type.String(), active: Type.Boolean() })),
          ...errorResponses(),
        },
      },
    },
    async (req) => {
      await devices.get(req.params.id);
      const rows = await index.runs(req.params.id, req.query.stream ?? 'main', range(req.query));
      return rows.map((r) => ({ id: r.id, start_date: r.start_date, end_date: r.end_date, active: r.active === 1 }));
    },
  );

  app.get(
    '/api/devices/:id/recordings/:recording_id/blob',
    {
      config: { auth: 'read' },
      schema: {
        tags,
        operationId: 'getChunkBlob',
        summary: 'One stored segment (MPEG-TS, video copied as the camera sent it)',
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }), recording_id: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: { 200: Binary('video/mp2t'), ...errorResponses() },
      },
    },
    async (req, reply) => {
      const seg = await index.get(req.params.id, req.params.recording_id);
      if (!seg) throw new ApiError('NOT_FOUND', 'Recording not found');
      return reply
        .type('video/mp2t')
        .header('content-length', seg.size)
        .header('x-start-date', seg.start_date)
        .header('x-end-date', seg.end_date)
        .send(createReadStream(join(config.storageRoot, seg.path)));
    },
  );
}
