// Footage export: an MP4 clip of 5 s to 2 h, remuxed from the recordings; the true start in `x-start-date`.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../lib/http/schemas.js';
import { hijack } from '../../lib/http/request-id.js';
import { Binary, StreamQuery } from '../http/index.js';
import { DeviceId } from '../devices/index.js';
import { clipRange } from './footage-export.js';
import { handOverSocket } from './clip-senders.js';
import { footageFileName } from './file-name.js';

export async function footageRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { devices, footage } = app.recorder;

  app.get(
    '/api/devices/:id/footage',
    {
      config: { auth: 'read' },
      schema: {
        tags: ['recordings'],
        operationId: 'footage',
        summary: 'An MP4 clip from `start_date` to `end_date` (or for `duration` seconds), 5 s to 2 h, starting on the keyframe at or before the start',
        params: DeviceId,
        querystring: Type.Object({
          start_date: Type.String({ maxLength: 40 }),
          end_date: Type.Optional(Type.String({ maxLength: 40 })),
          duration: Type.Optional(Type.Number({ description: 'Seconds' })),
          ...StreamQuery,
        }),
        response: { 200: Binary('video/mp4'), ...errorResponses() },
      },
    },
    async (req, reply) => {
      const device = await devices.get(req.params.id);
      const range = clipRange(req.query);
      const clip = await footage.plan(req.params.id, req.query.stream ?? 'main', range);
      const headers = {
        'content-type': 'video/mp4',
        'x-start-date': clip.start.toISOString(),
        'x-gap-seconds': clip.gapSeconds.toFixed(3),
        'content-disposition': `attachment; filename="${footageFileName(clip.start, device.timezone)}"`,
      };
      const socket = handOverSocket(req.raw);
      if (socket) {
        hijack(reply);
        await footage.sendOverSocket(clip, reply.raw, socket, headers).catch((err: Error) => req.log.warn({ err }, 'footage export cut short'));
        return reply;
      }
      return reply.headers(headers).send(await footage.stream(clip));
    },
  );
}
