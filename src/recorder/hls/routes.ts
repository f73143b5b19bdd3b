// HLS: live (no `pos`) or playback from `pos`; playlists and segments accept `?token=`.
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ApiError, validation } from '../../lib/errors.js';
import { errorResponses } from '../../lib/http/schemas.js';
import { Binary, StreamQuery, TokenQuery, callerToken, isoParam } from '../http/media.js';
import { DeviceId } from '../devices/routes.js';
import { buildPlaylist } from './playlists.js';

/** How much a playback playlist covers from `pos`. */
const PLAYBACK_WINDOW_MS = 2 * 60 * 60 * 1000;

export async function hlsRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { index, devices, config } = app.recorder;
  const tags = ['hls'];

  app.get(
    '/api/devices/:id/hls/index.m3u8',
    {
      config: { auth: 'media' },
      schema: {
        tags,
        operationId: 'hlsPlaylist',
        summary: 'HLS playlist: live (the newest segments, rolling) or playback from `pos`; every segment URI carries the token',
        params: DeviceId,
        querystring: Type.Object({
          pos: Type.Optional(Type.String({ maxLength: 40, description: 'ISO 8601: play back from here' })),
          ...StreamQuery,
          ...TokenQuery,
        }),
        response: { 200: Type.String({ description: 'application/vnd.apple.mpegurl' }), ...errorResponses() },
      },
    },
    async (req, reply) => {
      await devices.get(req.params.id);
      const stream = req.query.stream ?? 'main';
      const pos = isoParam(req.query.pos);
      if (pos && Number.isNaN(pos.getTime())) throw validation('pos', 'must be an ISO 8601 date-time');
      const token = callerToken(req);
      let body: string;
      if (!pos) {
        const segments = await index.latest(req.params.id, stream, config.liveWindow);
        if (segments.length === 0) throw new ApiError('NOT_FOUND', 'Nothing recorded yet for this device');
        body = buildPlaylist({ segments, live: true, token, mediaSequence: await index.countBefore(req.params.id, stream, segments[0]!.start_date) });
      } else {
        const segments = await index.overlapping(req.params.id, stream, pos.toISOString(), new Date(pos.getTime() + PLAYBACK_WINDOW_MS).toISOString(), 2000);
        if (segments.length === 0) throw new ApiError('NOT_FOUND', `Nothing recorded at or after ${pos.toISOString()}`);
        const first = segments[0]!;
        body = buildPlaylist({
          segments,
          live: false,
          token,
          mediaSequence: await index.countBefore(req.params.id, stream, first.start_date),
          startOffset: Math.max(0, (pos.getTime() - Date.parse(first.start_date)) / 1000),
        });
      }
      return reply.type('application/vnd.apple.mpegurl').header('cache-control', 'no-store').send(body);
    },
  );

  app.get(
    '/api/devices/:id/hls/segments/:segment',
    {
      config: { auth: 'media' },
      schema: {
        tags,
        operationId: 'hlsSegment',
        summary: 'One HLS segment (MPEG-TS), as referenced by a playlist',
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }), segment: Type.String({ pattern: '^[0-9a-f-]{36}\\.ts$' }) }),
        querystring: Type.Object({ ...TokenQuery }),
        response: { 200: Binary('video/mp2t'), ...errorResponses() },
      },
    },
    async (req, reply) => {
      const seg = await index.get(req.params.id, req.params.segment.slice(0, -3));
      if (!seg) throw new ApiError('NOT_FOUND', 'Segment not found');
      return reply
        .type('video/mp2t')
        .header('content-length', seg.size)
        .header('cache-control', 'private, max-age=86400, immutable')
        .send(createReadStream(join(config.storageRoot, seg.path)));
    },
  );
}
