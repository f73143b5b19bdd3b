// Snapshots: JPEG, live or at `time`; the frame's time in `x-timestamp`; `?token=` accepted.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses, StringEnum } from '../../lib/http/schemas.js';
import { Binary, StreamQuery, TokenQuery, timeParam } from '../http/index.js';
import { DeviceId } from '../devices/index.js';
import type { Snapshot } from './snapshots.js';

export async function snapshotRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { devices, snapshots } = app.recorder;

  app.get(
    '/api/devices/:id/snapshot',
    {
      config: { auth: 'media' },
      schema: {
        tags: ['snapshots'],
        operationId: 'snapshot',
        summary:
          'A JPEG: live (the camera snapshot URI, else the newest live HLS segment, else the newest recording), or at `time` from the recordings (`method=before`: the keyframe at or before it; `precise`: that exact frame)',
        params: DeviceId,
        querystring: Type.Object({
          time: Type.Optional(Type.String({ maxLength: 40 })),
          method: Type.Optional(StringEnum(['before', 'precise'], { description: 'Default before' })),
          ...StreamQuery,
          ...TokenQuery,
        }),
        response: { 200: Binary('image/jpeg'), ...errorResponses(502, 503) },
      },
    },
    async (req, reply) => {
      const device = await devices.get(req.params.id);
      const stream = req.query.stream ?? 'main';
      const time = req.query.time === undefined ? undefined : timeParam('time', req.query.time);
      let shot: Snapshot;
      if (time) shot = await snapshots.at(device.id, stream, time, req.query.method ?? 'before');
      else shot = await snapshots.current(device, stream, () => devices.credentials(device.id));
      return reply.type('image/jpeg').header('x-timestamp', shot.at.toISOString()).header('cache-control', 'no-store').send(shot.jpeg);
    },
  );
}
