// Media on every node (docs/deploy.md, Media on several nodes): with OVERLOOK_STORAGE=s3 what one node
// stored is served by every node. Two nodes on one PostgreSQL schema and one S3 bucket (s3rver): a frame
// captured through A, or stored through A's snapshot index, is listed and served by B's recordings
// endpoints; a media hub file uploaded on A and a clip A rendered are downloaded through B. Nothing is
// written under the data dir. And a node on PostgreSQL with the filesystem store warns at start.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import S3rver from 's3rver';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { platformConfig } from '../../../src/lib/config.js';
import { buildPlatformApp } from '../../../src/platform/app.js';
import { buildPeerNode, type TestNode } from '../../helpers/cluster.js';
import { createTestDb, testDialect } from '../../helpers/db.js';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { storeFrames, waitForStatus } from '../media-hub/media-fixtures.js';

const BUCKET = 'overlook-cluster';

describe.skipIf(testDialect() !== 'postgres')('media on every node (OVERLOOK_STORAGE=s3, PostgreSQL)', () => {
  let server: S3rver;
  let s3dir: string;
  let tp: TestPlatform;
  let b: TestNode;
  let owner: Person;
  let projectExid: string;
  let cameraExid: string;

  beforeAll(async () => {
    s3dir = mkdtempSync(join(tmpdir(), 'overlook-s3-cluster-'));
    server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3dir, configureBuckets: [{ name: BUCKET }] });
    const addr = await server.run();
    // A renders media hub items; B renders nothing, so what B serves was made on A.
    tp = await buildTestPlatform({
      OVERLOOK_STORAGE: 's3',
      OVERLOOK_S3_BUCKET: BUCKET,
      OVERLOOK_S3_ENDPOINT: `http://127.0.0.1:${addr.port}`,
      OVERLOOK_S3_ACCESS_KEY_ID: 'S3RVER',
      OVERLOOK_S3_SECRET_ACCESS_KEY: 'S3RVER',
    });
    b = await buildPeerNode(tp, { config: { mediaJobs: false } });
    owner = await tp.person('storage-owner');
    projectExid = (await tp.project(owner, 'Shared storage site')).exid;
    cameraExid = (await tp.camera(owner, projectExid, 'Shared storage cam')).exid;
  });
  afterAll(async () => {
    await b?.close();
    await tp?.close();
    await server?.close();
    rmSync(s3dir, { recursive: true, force: true });
  });

  const frameUrl = (at: string) => `/v2/cameras/${cameraExid}/recordings/snapshots/${at}?view=true`;

  it('a frame captured through A ("capture now") is listed and served by B', async () => {
    const shot = await tp.app.inject({ method: 'POST', url: `/v2/cameras/${cameraExid}/snapshots`, headers: owner.auth, payload: { note: 'from A' } });
    expect(shot.statusCode, shot.body).toBe(201);
    const { created_at, size } = shot.json();

    const list = await b.app.inject({ method: 'GET', url: `/v2/cameras/${cameraExid}/recordings/snapshots?order=asc`, headers: owner.auth });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data).toContainEqual(expect.objectContaining({ created_at, size, source: 'manual', note: 'from A' }));

    const onB = await b.app.inject({ method: 'GET', url: frameUrl(created_at), headers: owner.auth });
    expect(onB.statusCode, onB.body).toBe(200);
    expect(onB.headers['content-type']).toBe('image/jpeg');
    const onA = await tp.app.inject({ method: 'GET', url: frameUrl(created_at), headers: owner.auth });
    expect(onB.rawPayload.equals(onA.rawPayload)).toBe(true);
    expect(onB.rawPayload.length).toBe(size);
    expect(await sharp(onB.rawPayload).metadata()).toMatchObject({ format: 'jpeg' });
    // In the bucket, not in a folder of the data dir.
    expect(existsSync(join(tp.t.dataDir, 'objects'))).toBe(false);
  });

  it('frames stored through A’s snapshot index are served by B, and B’s clip of them (rendered on A) downloads', async () => {
    const day = Date.UTC(2026, 10, 12);
    const times = Array.from({ length: 4 }, (_, i) => new Date(day + (i + 1) * 3_600_000));
    await storeFrames(tp, cameraExid, times);
    const at = times[2]!.toISOString();
    const onB = await b.app.inject({ method: 'GET', url: frameUrl(at), headers: owner.auth });
    expect(onB.statusCode, onB.body).toBe(200);
    const onA = await tp.app.inject({ method: 'GET', url: frameUrl(at), headers: owner.auth });
    expect(onB.rawPayload.equals(onA.rawPayload)).toBe(true);

    // Asked of B, rendered by A (B renders nothing), downloaded through B.
    const res = await b.app.inject({
      method: 'POST',
      url: `/v2/projects/${projectExid}/media-hub/clips`,
      headers: owner.auth,
      payload: { title: 'Shared clip', camera_exid: cameraExid, from_date: '2026-11-12T00:00:00Z', to_date: '2026-11-12T06:00:00Z', width: 64 },
    });
    expect(res.statusCode, res.body).toBe(201);
    const item = await waitForStatus(tp, owner.auth, `/v2/projects/${projectExid}/media-hub/${res.json().id}`);
    expect(item.status, item.error).toBe('completed');
    const clipOnB = await b.app.inject({ method: 'GET', url: `/v2/media-hub/${item.id}/file`, headers: owner.auth });
    expect(clipOnB.statusCode, clipOnB.body).toBe(200);
    expect(clipOnB.headers['content-type']).toBe('video/mp4');
    const clipOnA = await tp.app.inject({ method: 'GET', url: `/v2/media-hub/${item.id}/file`, headers: owner.auth });
    expect(clipOnB.rawPayload.length).toBeGreaterThan(100);
    expect(clipOnB.rawPayload.equals(clipOnA.rawPayload)).toBe(true);
  });

  it('a media hub file uploaded on A downloads through B', async () => {
    const png = await sharp({ create: { width: 12, height: 8, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    const made = await tp.app.inject({
      method: 'POST',
      url: `/v2/projects/${projectExid}/media-hub`,
      headers: owner.auth,
      payload: { type: 'file', title: 'Drawing', file: `data:image/png;base64,${png.toString('base64')}`, file_name: 'drawing.png', content_type: 'image/png' },
    });
    expect(made.statusCode, made.body).toBe(201);
    const got = await b.app.inject({ method: 'GET', url: `/v2/media-hub/${made.json().id}/file?download=true`, headers: owner.auth });
    expect(got.statusCode, got.body).toBe(200);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.rawPayload.equals(png)).toBe(true);
  });
});

describe.skipIf(testDialect() !== 'postgres')('the filesystem store on PostgreSQL', () => {
  it('warns at start that several nodes need S3 or a shared folder', async () => {
    const t = await createTestDb();
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const config = { ...platformConfig({ dataDir: t.dataDir }, { OVERLOOK_RECORDING_LOOP: '0' }), databaseUrl: t.databaseUrl };
    const app = await buildPlatformApp({ config, db: t.db, logger: { level: 'warn', stream } as never });
    try {
      await app.ready();
      const warning = lines.map((l) => JSON.parse(l)).find((l) => String(l.msg).startsWith('storage:'));
      expect(warning).toMatchObject({ level: 40, objects: join(t.dataDir, 'objects') });
      expect(warning.msg).toContain('OVERLOOK_STORAGE=s3');
    } finally {
      await app.close();
      await t.cleanup();
    }
  });
});
