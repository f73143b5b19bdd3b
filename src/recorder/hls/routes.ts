// HLS: live (no `pos`: the device ffmpeg's own short-segment playlist, see live-playlist.ts) or
// playback from `pos` (stored recording segments); playlists and segments accept `?token=`.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ApiError, validation } from '../../lib/errors.js';
import { errorResponses } from '../../lib/http/schemas.js';
import { Binary, StreamQuery, TokenQuery, callerToken, isoParam } from '../http/index.js';
import { DeviceId } from '../devices/index.js';
import { buildPlaylist } from './playlists.js';
import { LIVE_SEGMENT, livePlaylist } from './live-playlist.js';
import { liveDir } from '../recording/index.js';

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
        summary: 'HLS playlist: live (segments of 1 to 4 s, rolling) or playback from `pos`; every segment URI carries the token',
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
        const live = await livePlaylist(liveDir(config.storageRoot, req.params.id, stream), token);
        if (live === null) throw new ApiError('NOT_FOUND', 'No live picture: the device is not streaming now (starting, stopped or failed)');
        body = live;
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
        summary: 'One HLS segment (MPEG-TS), as referenced by a playlist: a live one or a stored one',
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }), segment: Type.String({ pattern: '^([0-9a-f-]{36}|live-[0-9]{1,20})\\.ts$' }) }),
        querystring: Type.Object({ ...TokenQuery }),
        response: { 200: Binary('video/mp2t'), ...errorResponses() },
      },
    },
    async (req, reply) => {
      if (LIVE_SEGMENT.test(req.params.segment)) {
        // Live segments roll away after a few seconds; a player asks for each one once.
        const file = join(liveDir(config.storageRoot, req.params.id, 'main'), req.params.segment);
        // Opened before answering: ffmpeg may delete it the next moment, and an open file stays readable.
        const fh = await open(file, 'r').catch(() => null);
        if (!fh) throw new ApiError('NOT_FOUND', 'Live segment not found (it has rolled out of the live window)');
        const { size } = await fh.stat();
        return reply.type('video/mp2t').header('content-length', size).header('cache-control', 'private, max-age=60').send(fh.createReadStream());
      }
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
