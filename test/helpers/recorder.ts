// Builds the very recorder app `overlook recorder serve` runs, on a fresh data dir, with short
// segments, plus a test video that ffmpeg generates (10 fps, a keyframe every second).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { recorderConfig, type RecorderConfig } from '../../src/recorder/config.js';
import { openRecorderDb, type RecorderDb } from '../../src/recorder/db/recorder-db.js';
import { buildRecorderApp } from '../../src/recorder/app.js';
import { eventually as waitUntil } from './eventually.js';

export interface TestRecorder {
  app: FastifyInstance;
  db: RecorderDb;
  config: RecorderConfig;
  dir: string;
  video: string;
  adminToken: string;
  userToken: string;
  bearer(token: string): { authorization: string };
  close(): Promise<void>;
}

/** A test video in `dir` (for a file device, the recorder's media folder: `config.mediaDir`). */
export function makeTestVideo(dir: string, seconds = 4, name = 'source.mp4'): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  execFileSync('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc=size=320x240:rate=10`,
    '-t',
    String(seconds),
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-g',
    '10',
    '-pix_fmt',
    'yuv420p',
    file,
  ]);
  return file;
}

export async function buildTestRecorder(env: Record<string, string> = {}): Promise<TestRecorder> {
  const dir = mkdtempSync(join(tmpdir(), 'overlook-recorder-'));
  const config = recorderConfig({ dataDir: dir }, { OVERLOOK_RECORDER_SEGMENT_SECONDS: '1', ...env });
  const db = await openRecorderDb(config.dataDir);
  const app = await buildRecorderApp({ config, db, logger: false });
  await app.ready();
  const login = async (email: string, role: 'admin' | 'user') => {
    await app.recorder.users.create({ email, password: 'password-123', role });
    const res = await app.inject({ method: 'POST', url: '/api/users/login', payload: { username: email, password: 'password-123' } });
    return res.json().access_token as string;
  };
  const adminToken = await login('admin@example.com', 'admin');
  const userToken = await login('viewer@example.com', 'user');
  return {
    app,
    db,
    config,
    dir,
    video: makeTestVideo(config.mediaDir),
    adminToken,
    userToken,
    bearer: (token) => ({ authorization: `Bearer ${token}` }),
    async close() {
      await app.close();
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `eventually` (eventually.ts) with the deadline first, as the recorder's tests call it. */
export const eventually = <T>(check: () => Promise<T | undefined | false>, ms = 20_000, what = 'condition'): Promise<T> => waitUntil(check, what, ms);
