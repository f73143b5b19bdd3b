// The recorder loop on several nodes (docs/deploy.md, Background work): two apps on one PostgreSQL
// schema, each with its loop running on real timers and 2 s leases, share the cameras (each camera
// recorded by one node, no slot twice) and retention (one holder); when one node is killed (its
// heartbeat and loop stop, nothing released) the other takes its cameras once their leases expire and
// goes on from their last frames. One node alone (SQLite or PostgreSQL) records every camera.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { platformConfig } from '../../../src/lib/config.js';
import { openDb } from '../../../src/lib/db/index.js';
import { buildPlatformApp } from '../../../src/platform/app.js';
import type { PlatformDatabase } from '../../../src/platform/database.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';
import { RETENTION_LEASE } from '../../../src/platform/recordings/recorder-loop.js';
import { testDialect } from '../../helpers/db.js';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';

const ENV = { OVERLOOK_RECORDING_LOOP: '1', OVERLOOK_WORK_LEASE_SECONDS: '2' };
const LEASE_MS = 2000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Another node on `tp`'s PostgreSQL schema, through a pool of its own. */
async function peer(tp: TestPlatform): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  const db = openDb<PlatformDatabase>({ databaseUrl: tp.t.databaseUrl, pgSchema: tp.t.pgSchema, poolSize: 4 });
  const config = { ...platformConfig({ dataDir: tp.t.dataDir }, ENV), databaseUrl: tp.t.databaseUrl };
  const app = await buildPlatformApp({ config, db, logger: false });
  await app.ready();
  return {
    app,
    async close() {
      await app.close();
      await db.close();
    },
  };
}

async function recordingCameras(tp: TestPlatform, owner: Person, n: number): Promise<string[]> {
  const project = await tp.project(owner);
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const cam = await tp.camera(owner, project.exid, `Cam ${i}`);
    const res = await tp.app.inject({
      method: 'PUT',
      url: `/v2/cameras/${cam.exid}/cloud-recordings`,
      headers: owner.auth,
      payload: { status: 'on', frequency: 60 },
    });
    expect(res.statusCode, res.body).toBe(200);
    ids.push((await servicesOf(tp.app).cameras.row(cam.exid)).id);
  }
  return ids;
}

const framesOf = async (tp: TestPlatform, cameraId: string) =>
  (await tp.t.db.kysely.selectFrom('snapshots').select('taken_at').where('camera_id', '=', cameraId).orderBy('taken_at').execute()).map((r) =>
    Date.parse(r.taken_at),
  );

/** No slot recorded twice: consecutive frames of a camera (one a second) at least half a second apart. */
async function expectNoDuplicates(tp: TestPlatform, ids: string[]) {
  for (const id of ids) {
    const frames = await framesOf(tp, id);
    const gaps = frames.slice(1).map((f, i) => f - frames[i]!);
    expect(Math.min(...gaps), `camera ${id}: ${gaps.join(', ')}`).toBeGreaterThanOrEqual(500);
  }
}

const recordedBy = (app: FastifyInstance, ids: string[]) => ids.filter((id) => servicesOf(app).recorder.stateOf(id) !== undefined);

async function until(what: string, ok: () => Promise<boolean> | boolean, deadlineMs: number): Promise<number> {
  const start = Date.now();
  while (!(await ok())) {
    if (Date.now() - start > deadlineMs) throw new Error(`not within ${deadlineMs} ms: ${what}`);
    await sleep(50);
  }
  return Date.now() - start;
}

describe('one node', () => {
  it('records every camera and holds retention', async () => {
    const tp = await buildTestPlatform(ENV);
    try {
      const ids = await recordingCameras(tp, await tp.person('solo'), 3);
      await until('every camera recorded twice', async () => (await Promise.all(ids.map((id) => framesOf(tp, id)))).every((f) => f.length >= 2), 10_000);
      expect(recordedBy(tp.app, ids)).toEqual(ids);
      expect(servicesOf(tp.app).workLeases.holds(RETENTION_LEASE)).toBe(true);
      await expectNoDuplicates(tp, ids);
    } finally {
      await tp.close();
    }
  });
});

describe.skipIf(testDialect() !== 'postgres')('two nodes on one database', () => {
  let a: TestPlatform;
  let b: Awaited<ReturnType<typeof peer>>;
  let ids: string[];

  beforeAll(async () => {
    a = await buildTestPlatform(ENV);
    b = await peer(a);
    ids = await recordingCameras(a, await a.person('owner'), 4);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('share the cameras: each recorded by one node, no slot twice; one node runs retention', async () => {
    // Both nodes' loops took part: the cameras end up split two and two.
    await until(
      'cameras split between the nodes',
      () => ids.every((id) => recordedBy(a.app, [id]).length + recordedBy(b.app, [id]).length === 1) && recordedBy(b.app, ids).length === 2,
      10_000,
    );
    const start = Date.now();
    const recentOf = async (id: string) => (await framesOf(a, id)).filter((t) => t >= start);
    await until('every camera recorded twice since', async () => (await Promise.all(ids.map(recentOf))).every((f) => f.length >= 2), 10_000);
    const seconds = (Date.now() - start) / 1000;
    // At most one frame a second (and one at the start) per camera, whichever node records it.
    for (const id of ids) expect((await recentOf(id)).length).toBeLessThanOrEqual(Math.ceil(seconds) + 1);
    await expectNoDuplicates(a, ids);
    expect(servicesOf(a.app).recorder.stats.captures).toBeGreaterThan(0);
    expect(servicesOf(b.app).recorder.stats.captures).toBeGreaterThan(0);
    const retention = [a, b].filter((n) => servicesOf(n.app).workLeases.holds(RETENTION_LEASE));
    expect(retention).toHaveLength(1);
  });

  it("takes over a killed node's cameras once their leases expire, from their last frames", async () => {
    const theirs = recordedBy(b.app, ids);
    expect(theirs).toHaveLength(2);
    // Killed: no heartbeat, no loop, nothing released.
    servicesOf(b.app).workLeases.halt();
    await servicesOf(b.app).recorder.stop();
    const killedAt = Date.now();
    await sleep(500);
    expect(recordedBy(a.app, theirs)).toEqual([]); // still leased to the dead node
    const took = await until('cameras taken over', () => recordedBy(a.app, ids).length === 4, 10_000);
    // Within the lease plus one reload (a third of the lease) and a little slack.
    expect(500 + took).toBeLessThanOrEqual(LEASE_MS + LEASE_MS / 3 + 1000);
    await until(
      'their cameras recorded again',
      async () => (await Promise.all(theirs.map((id) => framesOf(a, id)))).every((f) => f.some((t) => t > killedAt + 500)),
      5000,
    );
    await sleep(1500);
    await expectNoDuplicates(a, ids);
    await until('retention held by the live node', () => servicesOf(a.app).workLeases.holds(RETENTION_LEASE), 5000);
  });
});
