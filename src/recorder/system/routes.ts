// System status: version, uptime, CPU, memory, the storage disk and each device's recording.
import { statfs } from 'node:fs/promises';
import { cpus, freemem, loadavg, totalmem } from 'node:os';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../lib/http/schemas.js';

export async function systemRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { devices, manager, config, version, startedAt } = app.recorder;

  // Liveness for supervisors and load balancers, as on every Overlook service; outside the twenty documented paths.
  app.get('/health', { config: { auth: 'public' }, schema: { hide: true, response: { 200: Type.Object({ status: Type.Literal('ok') }) } } }, async () => ({
    status: 'ok' as const,
  }));

  app.get(
    '/api/system/status',
    {
      config: { auth: 'read' },
      schema: {
        tags: ['system'],
        operationId: 'systemStatus',
        summary: 'The recorder’s version, uptime, CPU, memory and disk',
        response: {
          200: Type.Object({
            version: Type.String(),
            uptime_s: Type.Integer(),
            cpu: Type.Object({ cores: Type.Integer(), load: Type.Array(Type.Number()) }),
            memory: Type.Object({ total: Type.Integer(), free: Type.Integer(), recorder_rss: Type.Integer() }),
            storage: Type.Object({ path: Type.String(), total: Type.Integer(), free: Type.Integer(), used_percent: Type.Number() }),
            devices: Type.Array(
              Type.Object({
                id: Type.String(),
                name: Type.String(),
                state: Type.String(),
                state_reason: Type.Union([Type.String(), Type.Null()]),
                ffmpeg_pid: Type.Union([Type.Integer(), Type.Null()]),
                segments_this_run: Type.Integer(),
              }),
            ),
          }),
          ...errorResponses(),
        },
      },
    },
    async () => {
      const fs = await statfs(config.storageRoot);
      const running = new Map(manager.running().map((r) => [r.deviceId, r]));
      return {
        version,
        uptime_s: Math.round((Date.now() - startedAt) / 1000),
        cpu: { cores: cpus().length, load: loadavg() },
        memory: { total: totalmem(), free: freemem(), recorder_rss: process.memoryUsage.rss() },
        storage: {
          path: config.storageRoot,
          total: fs.blocks * fs.bsize,
          free: fs.bavail * fs.bsize,
          used_percent: Math.round(1000 * (1 - fs.bavail / fs.blocks)) / 10,
        },
        devices: (await devices.list()).map((d) => ({
          id: d.id,
          name: d.name,
          state: d.state,
          state_reason: d.state_reason,
          ffmpeg_pid: running.get(d.id)?.pid ?? null,
          segments_this_run: running.get(d.id)?.segments ?? 0,
        })),
      };
    },
  );
}
