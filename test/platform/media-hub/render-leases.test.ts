// Media renders on several nodes (docs/deploy.md, Background work), on SQLite and PostgreSQL: a render
// is claimed with a lease its node renews while rendering, so another node starting (or polling) leaves
// it alone; once its node is killed (heartbeat and runner stopped, nothing released) and the lease has
// expired, a running node re-queues and finishes it, and so does a node starting after the expiry.
// Every app here shares the test database and the data dir; the 1.5 s leases and 0.5 s queue polls keep
// the waits short.
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { platformConfig } from '../../../src/lib/config.js';
import { buildPlatformApp } from '../../../src/platform/app.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { storeFrames } from './media-fixtures.js';

let tp: TestPlatform;
let owner: Person;
let projectExid: string;
let cameraExid: string;
let slowFfmpeg: string;
let apps: FastifyInstance[] = [];
const DAY = Date.UTC(2026, 10, 10);
const times = Array.from({ length: 6 }, (_, i) => new Date(DAY + (i + 2) * 3_600_000));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  // The test platform itself renders nothing: only the nodes built below do.
  tp = await buildTestPlatform({ OVERLOOK_MEDIA_JOBS: '0' });
  owner = await tp.person('render-owner');
  projectExid = (await tp.project(owner, 'Render site')).exid;
  cameraExid = (await tp.camera(owner, projectExid, 'Render cam')).exid;
  await storeFrames(tp, cameraExid, times);
  // An ffmpeg that hangs: its render is surely still running when a test looks.
  slowFfmpeg = join(tp.t.dataDir, 'slow-ffmpeg.sh');
  writeFileSync(slowFfmpeg, '#!/bin/sh\nsleep 60\nexec ffmpeg "$@"\n');
  chmodSync(slowFfmpeg, 0o755);
});
afterAll(async () => {
  await closeNodes();
  await tp?.close();
});

async function closeNodes() {
  for (const app of apps) await app.close();
  apps = [];
}

async function node(env: Record<string, string> = {}): Promise<FastifyInstance> {
  const config = {
    ...platformConfig(
      { dataDir: tp.t.dataDir },
      { OVERLOOK_RECORDING_LOOP: '0', OVERLOOK_WORK_LEASE_SECONDS: '1.5', OVERLOOK_MEDIA_POLL_SECONDS: '0.5', ...env },
    ),
    databaseUrl: tp.t.databaseUrl,
  };
  const app = await buildPlatformApp({ config, db: tp.t.db, logger: false });
  await app.ready();
  apps.push(app);
  return app;
}

const job = async (id: string) => tp.t.db.kysely.selectFrom('media_hub_items').select(['status', 'attempts']).where('id', '=', id).executeTakeFirstOrThrow();

async function waitFor(id: string, ok: (j: { status: string; attempts: number }) => boolean, deadlineMs: number) {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const j = await job(id);
    if (ok(j)) return j;
    if (Date.now() > end) throw new Error(`job ${id} still ${j.status} (attempts ${j.attempts})`);
    await sleep(50);
  }
}

/** A clip asked of `app`, once its (slow) render is processing there. */
async function renderingOn(app: FastifyInstance, title: string): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: `/v2/projects/${projectExid}/media-hub/clips`,
    headers: owner.auth,
    payload: { title, camera_exid: cameraExid, from_date: '2026-11-10T02:00:00Z', to_date: '2026-11-10T04:00:00Z', width: 64 },
  });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().id as string;
  await waitFor(id, (j) => j.status === 'processing', 10_000);
  return id;
}

/** Killed: its heartbeat and runner stop, nothing is released. */
async function kill(app: FastifyInstance) {
  servicesOf(app).workLeases.halt();
  await servicesOf(app).mediaJobs.stop();
}

describe('render leases', () => {
  afterEach(closeNodes);

  it('a render a live node holds is not re-queued by another node starting or polling; once that node is dead, it is and completes', async () => {
    const a = await node({ OVERLOOK_FFMPEG: slowFfmpeg });
    const id = await renderingOn(a, 'Held');
    const b = await node();
    expect(await job(id)).toMatchObject({ status: 'processing', attempts: 1 });
    // Past two lease terms and several polls of B: A's heartbeat keeps it.
    await sleep(3500);
    expect(await job(id)).toMatchObject({ status: 'processing', attempts: 1 });
    await kill(a);
    const done = await waitFor(id, (j) => j.status === 'completed' || j.status === 'failed', 20_000);
    expect(done).toMatchObject({ status: 'completed', attempts: 2 });
    // Released when the render ends: the row says completed a moment before the runner lets the lease go.
    await expect.poll(() => servicesOf(b).workLeases.heldWith('media:'), { timeout: 5_000, interval: 50 }).toEqual([]);
  });

  it('a node starting after a dead node’s lease expired re-queues its render and completes it', async () => {
    const a = await node({ OVERLOOK_FFMPEG: slowFfmpeg });
    const id = await renderingOn(a, 'Orphaned');
    await kill(a);
    await sleep(2000);
    await node();
    const done = await waitFor(id, (j) => j.status === 'completed' || j.status === 'failed', 20_000);
    expect(done).toMatchObject({ status: 'completed', attempts: 2 });
  });
});
