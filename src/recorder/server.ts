// Starts the recorder: open its database, put storage back in order after a crash, start recording,
// listen, and keep the link to a platform when linked (docs/recorder.md, Platform link). Stops ffmpeg cleanly on SIGINT/SIGTERM (each finishes and indexes its current segment).
import type { FastifyInstance } from 'fastify';
import { processEnv, resolveAddress, type Env, type ServeFlags } from '../lib/config.js';
import { loggerOptions } from '../lib/logger.js';
import { recorderConfig, type RecorderConfig } from './config.js';
import { openRecorderDb, type RecorderDb } from './db/recorder-db.js';
import { buildRecorderApp } from './app.js';
import { recoverStorage, type RecoveryReport } from './recording/recovery.js';
import { STREAMS } from './recording/segment-layout.js';

export interface RunningRecorder {
  app: FastifyInstance;
  db: RecorderDb;
  config: RecorderConfig;
  url: string;
  recovery: RecoveryReport;
  close(): Promise<void>;
}

export async function startRecorder(flags: ServeFlags, env: Env = processEnv()): Promise<RunningRecorder> {
  const address = resolveAddress('recorder', flags, env);
  const config = recorderConfig(flags, env);
  const db = await openRecorderDb(config.dataDir);
  const app = await buildRecorderApp({ config, db, logger: loggerOptions(config.logLevel) });
  const { devices, index, manager, plates } = app.recorder;
  const recovery = await recoverStorage({
    storageRoot: config.storageRoot,
    index,
    ffprobe: config.ffprobePath,
    deviceIds: (await devices.list()).map((d) => d.id),
    streams: STREAMS,
  });
  if (recovery.indexed || recovery.removed || recovery.orphansStopped) app.log.warn(recovery, 'recovered storage after an unclean stop');
  await app.listen({ host: address.host, port: address.port });
  await manager.startAll();
  // Frame files a crash left without their outbox row go; then the link to the platform, if any, opens.
  const orphans = await app.recorder.outbox.clean();
  if (orphans) app.log.warn({ orphans }, 'removed platform-link frame files without an outbox row');
  await app.recorder.link.start();
  await plates.startAll();
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : address.port;
  return {
    app,
    db,
    config,
    recovery,
    url: `http://${address.host.includes(':') ? `[${address.host}]` : address.host}:${port}`,
    async close() {
      await app.close();
      await db.close();
    },
  };
}
