// Deleting a camera or a project leaves nothing behind: no row in any table that has a camera_id or
// project_id column (whatever features exist when this runs), no stored file (recorded frames, plate
// images, logos, thumbnails), no running live stream; and it removes nothing of anyone else's.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { ingest, ingestionToken, jpeg as plateJpeg } from '../anpr/anpr-helpers.js';
import { b64, makeLogo, recordFrame } from './settings-helpers.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';

let tp: TestPlatform;
beforeAll(async () => {
  tp = await buildTestPlatform();
});
afterAll(async () => tp.close());

function files(dir = join(tp.t.dataDir, 'objects')): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : [join(dir, n)]))
    .map((f) => relative(join(tp.t.dataDir, 'objects'), f))
    .sort();
}

/** Every table with a camera_id or project_id column, from the database's own catalogue. */
async function referencingTables(): Promise<{ table: string; column: 'camera_id' | 'project_id' }[]> {
  const db = tp.t.db;
  const out: { table: string; column: 'camera_id' | 'project_id' }[] = [];
  if (db.pgSchema) {
    const rows = await sql<{ table_name: string; column_name: string }>`
      select table_name, column_name from information_schema.columns
      where table_schema = ${db.pgSchema} and column_name in ('camera_id', 'project_id')`.execute(db.kysely);
    for (const r of rows.rows) out.push({ table: r.table_name, column: r.column_name as 'camera_id' | 'project_id' });
  } else {
    const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(db.kysely);
    for (const t of tables.rows) {
      const cols = await sql<{ name: string }>`select name from pragma_table_info(${t.name})`.execute(db.kysely);
      for (const c of cols.rows) if (c.name === 'camera_id' || c.name === 'project_id') out.push({ table: t.name, column: c.name });
    }
  }
  return out;
}

/** Rows anywhere that point at these ids. */
async function rowsReferencing(ids: { cameras: string[]; projects: string[] }): Promise<Record<string, number>> {
  const found: Record<string, number> = {};
  for (const { table, column } of await referencingTables()) {
    const list = column === 'camera_id' ? ids.cameras : ids.projects;
    if (list.length === 0) continue;
    const r = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)} where ${sql.ref(column)} in (${sql.join(list)})`.execute(
      tp.t.db.kysely,
    );
    const n = Number(r.rows[0]?.n ?? 0);
    if (n > 0) found[`${table}.${column}`] = n;
  }
  return found;
}

const idOf = async (table: 'cameras' | 'projects', exid: string) =>
  (await tp.t.db.kysely.selectFrom(table).select('id').where('exid', '=', exid).executeTakeFirstOrThrow()).id;

/** A project with everything the platform can hold today, made through the API. */
async function fullProject(owner: Person, name: string) {
  const p = await tp.project(owner, name);
  const cams = [await tp.camera(owner, p.exid, `${name} gate`), await tp.camera(owner, p.exid, `${name} crane`)];
  const member = await tp.person('member');
  await tp.addMember(owner, p.exid, member, 'editor');
  await tp.key(member, { projects: [p.exid], scopes: ['project:settings'] });
  for (const c of cams) {
    await recordFrame(tp, owner, c.exid);
    await recordFrame(tp, owner, c.exid);
    const { token } = await ingestionToken(tp, owner, c.exid);
    await ingest(tp, c.exid, token, { plate_number: 'AB12CDE', plate_image: b64(await plateJpeg()) });
    const inject = (method: 'POST' | 'PUT' | 'PATCH' | 'GET', url: string, payload?: object) =>
      tp.app.inject({ method, url, headers: owner.auth, ...(payload ? { payload } : {}) });
    expect((await inject('POST', `/v2/cameras/${c.exid}/notes`, { content: 'Lens cleaned', is_public: true })).statusCode).toBeLessThan(300);
    expect((await inject('PATCH', `/v2/cameras/${c.exid}/settings/recording`, { status: 'paused' })).statusCode).toBe(200);
    expect((await inject('GET', `/v2/cameras/${c.exid}/health`)).statusCode).toBe(200);
  }
  const inject = (method: 'POST' | 'PUT', url: string, payload: object) => tp.app.inject({ method, url, headers: owner.auth, payload });
  expect((await inject('POST', `/v2/projects/${p.exid}/anpr/watchlist`, { plate: 'AB12CDE', label: 'Site manager' })).statusCode).toBeLessThan(300);
  expect(
    (await inject('POST', '/v2/progress-photos', { project_exid: p.exid, title: 'Weekly', camera_exids: [cams[0]!.exid], recipients: ['pm@example.com'] }))
      .statusCode,
  ).toBeLessThan(300);
  await makeLogo(tp, owner, p.exid);
  expect((await inject('POST', `/v2/projects/${p.exid}/thumbnail/from-camera`, { camera_exid: cams[0]!.exid })).statusCode).toBe(200);
  const ids = { project: await idOf('projects', p.exid), cameras: await Promise.all(cams.map((c) => idOf('cameras', c.exid))) };
  return { exid: p.exid, cams, member, ...ids };
}

describe('deletion', () => {
  it('of a camera removes its rows, files and live stream, and nothing of its neighbour', async () => {
    const owner = await tp.person('owner');
    const p = await fullProject(owner, 'Camdel');
    const [victim, neighbour] = p.cams;
    const before = files();
    const victimFiles = before.filter((f) => f.includes(p.cameras[0]!));
    expect(victimFiles.length).toBeGreaterThanOrEqual(3); // two frames and a plate image at least
    expect(Object.keys(await rowsReferencing({ cameras: [p.cameras[0]!], projects: [] })).length).toBeGreaterThanOrEqual(5);

    // A live stream of the camera is running (ffmpeg).
    const hls = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${victim!.exid}/hls`, headers: owner.auth });
    expect(hls.statusCode, hls.body).toBe(200);
    const variant = hls.body.split('\n').find((l) => l && !l.startsWith('#'))!;
    const media = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${victim!.exid}/${variant}` });
    expect(media.statusCode, media.body).toBe(200);
    expect(servicesOf(tp.app).liveView.streams.status(victim!.exid).running).toBe(true);

    const del = await tp.app.inject({ method: 'DELETE', url: `/v2/cameras/${victim!.exid}`, headers: owner.auth });
    expect(del.statusCode, del.body).toBe(204);

    expect(await rowsReferencing({ cameras: [p.cameras[0]!], projects: [] })).toEqual({});
    expect(files()).toEqual(before.filter((f) => !victimFiles.includes(f)));
    expect(files().filter((f) => f.includes(p.cameras[1]!)).length).toBeGreaterThanOrEqual(3);
    expect(servicesOf(tp.app).liveView.streams.status(victim!.exid).running).toBe(false);
    const hlsRoot = join(tp.t.dataDir, 'live-hls');
    expect(existsSync(hlsRoot) ? readdirSync(hlsRoot).filter((n) => n.startsWith('stream-')) : []).toEqual([]);

    // Gone everywhere, at once (no cache answers for it); the neighbour is untouched.
    for (const path of ['', '/settings', '/recordings/snapshots/latest']) {
      expect((await tp.app.inject({ method: 'GET', url: `/v2/cameras/${victim!.exid}${path}`, headers: owner.auth })).statusCode, path).toBe(404);
    }
    expect((await tp.app.inject({ method: 'DELETE', url: `/v2/cameras/${victim!.exid}`, headers: owner.auth })).statusCode).toBe(404);
    expect((await tp.app.inject({ method: 'GET', url: `/v2/cameras/${neighbour!.exid}/recordings/snapshots/latest`, headers: owner.auth })).statusCode).toBe(
      200,
    );
    const history = (await tp.app.inject({ method: 'GET', url: `/v2/projects/${p.exid}/settings/history`, headers: owner.auth })).json();
    expect(history.data.find((e: { action: string }) => e.action === 'camera.deleted').details).toMatchObject({ camera_exid: victim!.exid });
  });

  it('of a project removes every camera, row and file of it, for its owner only; other projects stay whole', async () => {
    const owner = await tp.person('owner');
    const survivor = await fullProject(owner, 'Keep');
    const survivorFiles = files();
    const p = await fullProject(owner, 'Projdel');
    const all = files();
    expect(all.length).toBeGreaterThan(survivorFiles.length + 6);
    const admin = await tp.person('admin');
    await tp.addMember(owner, p.exid, admin, 'admin');
    const adminKey = await tp.key(admin, { projects: [p.exid], scopes: ['project:settings'] });
    expect((await tp.app.inject({ method: 'DELETE', url: `/v2/projects/${p.exid}`, headers: adminKey.headers })).json().code).toBe('PERMISSION_DENIED');
    // Warm the access caches of the member and the owner's key, so stale ones would show.
    const ownerKey = await tp.key(owner, { projects: [p.exid, survivor.exid], scopes: ['project:settings', 'projects:read'] });
    expect((await tp.app.inject({ method: 'GET', url: `/v2/projects/${p.exid}/roles`, headers: ownerKey.headers })).statusCode).toBe(200);
    expect((await tp.app.inject({ method: 'GET', url: `/v2/projects/${p.exid}`, headers: p.member.auth })).statusCode).toBe(200);

    const del = await tp.app.inject({ method: 'DELETE', url: `/v2/projects/${p.exid}`, headers: ownerKey.headers });
    expect(del.statusCode, del.body).toBe(204);

    expect(await rowsReferencing({ cameras: p.cameras, projects: [p.project] })).toEqual({});
    expect(await tp.t.db.kysely.selectFrom('projects').select('id').where('id', '=', p.project).execute()).toEqual([]);
    expect(files()).toEqual(survivorFiles);
    expect(Object.keys(await rowsReferencing({ cameras: survivor.cameras, projects: [survivor.project] })).length).toBeGreaterThanOrEqual(5);

    expect((await tp.app.inject({ method: 'GET', url: `/v2/projects/${p.exid}`, headers: owner.auth })).statusCode).toBe(404);
    expect((await tp.app.inject({ method: 'GET', url: `/v2/projects/${p.exid}`, headers: p.member.auth })).statusCode).toBe(404);
    expect((await tp.app.inject({ method: 'GET', url: `/v2/cameras/${p.cams[0]!.exid}`, headers: owner.auth })).statusCode).toBe(404);
    const list = (await tp.app.inject({ method: 'GET', url: '/v2/projects', headers: p.member.auth })).json();
    expect(list.map((x: { exid: string }) => x.exid)).not.toContain(p.exid);
    expect((await tp.app.inject({ method: 'GET', url: `/v2/projects/${survivor.exid}/logos`, headers: ownerKey.headers })).json()).toHaveLength(1);

    // The deletion is in the owner's audit log; the members are told.
    const log = (await tp.app.inject({ method: 'GET', url: '/v2/users/audit?action=project.deleted', headers: owner.auth })).json();
    expect(log.data[0].details).toMatchObject({ project_exid: p.exid, cameras: expect.arrayContaining(p.cams.map((c) => c.exid)) });
    const notes = await tp.app.inject({ method: 'GET', url: '/v2/notifications', headers: p.member.auth });
    expect(JSON.stringify(notes.json())).toContain('was deleted');
  });
});
