// Logos and the project thumbnail: uploads really decode, are re-encoded and served back from the object
// store; replaced and deleted images leave no file behind; bad and oversized uploads are 4xx.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { b64, jpeg, makeLogo, png, recordFrame } from './settings-helpers.js';

let tp: TestPlatform;
beforeAll(async () => {
  // A small limit, so the size check is exercised without megabytes of test data.
  tp = await buildTestPlatform({ OVERLOOK_SETTINGS_IMAGE_MAX_BYTES: String(200 * 1024) });
});
afterAll(async () => tp.close());

function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? filesUnder(join(dir, n)) : [join(dir, n)]));
  } catch {
    return [];
  }
}
const projectFiles = (projectId: string) => filesUnder(join(tp.t.dataDir, 'objects', 'projects', projectId));

async function setup(): Promise<{ owner: Person; exid: string; id: string }> {
  const owner = await tp.person('owner');
  const p = await tp.project(owner, 'Logo site');
  const row = await tp.t.db.kysely.selectFrom('projects').select('id').where('exid', '=', p.exid).executeTakeFirstOrThrow();
  return { owner, exid: p.exid, id: row.id };
}

describe('logos', () => {
  it('creates, lists, serves, replaces and deletes logos; files follow', async () => {
    const { owner, exid, id } = await setup();
    const big = await png(3000, 600);
    const res = await tp.app.inject({
      method: 'POST',
      url: `/v2/projects/${exid}/logos`,
      headers: owner.auth,
      payload: { name: 'Client', image: `data:image/png;base64,${b64(big)}`, position: 'bottom-left' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const logo = res.json();
    // Re-encoded as PNG, at most 1024 px a side, proportions kept, transparency kept.
    expect(logo).toMatchObject({ name: 'Client', position: 'bottom-left', content_type: 'image/png', width: 1024, height: 205 });
    const img = await tp.app.inject({ method: 'GET', url: logo.url, headers: owner.auth });
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');
    const meta = await sharp(img.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 1024, height: 205, hasAlpha: true });
    const cached = await tp.app.inject({ method: 'GET', url: logo.url, headers: { ...owner.auth, 'if-none-match': img.headers.etag as string } });
    expect(cached.statusCode).toBe(304);

    const second = await makeLogo(tp, owner, exid, 'Architect');
    const list = await tp.app.inject({ method: 'GET', url: `/v2/projects/${exid}/logos`, headers: owner.auth });
    expect(list.json().map((l: { name: string }) => l.name)).toEqual(['Client', 'Architect']);
    expect(projectFiles(id)).toHaveLength(2);

    // Replacing the image: new bytes served, the old file gone, a new ETag.
    const jpg = await jpeg(300, 300, '#00ff00');
    const upd = await tp.app.inject({
      method: 'PATCH',
      url: `/v2/projects/${exid}/logos/${logo.id}`,
      headers: owner.auth,
      payload: { image: b64(jpg), name: 'Client Ltd', position: 'top-left' },
    });
    expect(upd.statusCode, upd.body).toBe(200);
    expect(upd.json()).toMatchObject({ name: 'Client Ltd', position: 'top-left', width: 300, height: 300 });
    const img2 = await tp.app.inject({ method: 'GET', url: logo.url, headers: owner.auth });
    expect(img2.headers.etag).not.toBe(img.headers.etag);
    const { data } = await sharp(img2.rawPayload).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    expect(data[1]).toBeGreaterThan(200);
    expect(data[0]).toBeLessThan(40);
    expect(projectFiles(id)).toHaveLength(2);

    const del = await tp.app.inject({ method: 'DELETE', url: `/v2/projects/${exid}/logos/${second.id}`, headers: owner.auth });
    expect(del.statusCode).toBe(204);
    expect((await tp.app.inject({ method: 'GET', url: `/v2/projects/${exid}/logos/${second.id}`, headers: owner.auth })).statusCode).toBe(404);
    expect((await tp.app.inject({ method: 'DELETE', url: `/v2/projects/${exid}/logos/${second.id}`, headers: owner.auth })).statusCode).toBe(404);
    expect(projectFiles(id)).toHaveLength(1);
  });

  it('refuses what is not an image, a truncated image, an oversized one, bad fields; a logo of another project is 404', async () => {
    const { owner, exid } = await setup();
    const good = await png();
    const truncated = (await jpeg(800, 600)).subarray(0, 2000);
    const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } })
      .gif()
      .toBuffer();
    const huge = await sharp({ create: { width: 1200, height: 1200, channels: 3, background: '#000' } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    const cases: [object, number][] = [
      [{ name: 'x', image: 'not base64!!' }, 400],
      [{ name: 'x', image: b64(Buffer.from('hello, not an image')) }, 400],
      [{ name: 'x', image: b64(truncated) }, 400],
      [{ name: 'x', image: b64(gif) }, 400],
      [{ name: 'x', image: b64(huge) }, 413],
      [{ name: '  ', image: b64(good) }, 400],
      [{ name: 'x', image: b64(good), position: 'middle' }, 400],
      [{ image: b64(good) }, 400],
      [{ name: 'x', image: b64(good), extra: 1 }, 400],
    ];
    // Within the request body limit, but over the image limit (200 KiB here): the service's own 413.
    const noise = await sharp(Buffer.from(Array.from({ length: 300 * 260 * 3 }, (_, i) => (i * 7919) % 251)), { raw: { width: 300, height: 260, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(noise.length).toBeGreaterThan(200 * 1024);
    const over = await tp.app.inject({ method: 'POST', url: `/v2/projects/${exid}/logos`, headers: owner.auth, payload: { name: 'x', image: b64(noise) } });
    expect(over.statusCode, over.body).toBe(413);
    expect(over.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(over.json().message).toContain('OVERLOOK_SETTINGS_IMAGE_MAX_BYTES');
    for (const [payload, status] of cases) {
      const res = await tp.app.inject({ method: 'POST', url: `/v2/projects/${exid}/logos`, headers: owner.auth, payload });
      expect(res.statusCode, `${JSON.stringify(payload).slice(0, 80)}: ${res.body}`).toBe(status);
    }
    expect((await tp.app.inject({ method: 'GET', url: `/v2/projects/${exid}/logos`, headers: owner.auth })).json()).toEqual([]);
    const other = await setup();
    const foreign = await makeLogo(tp, other.owner, other.exid);
    expect((await tp.app.inject({ method: 'GET', url: `/v2/projects/${exid}/logos/${foreign.id}`, headers: owner.auth })).statusCode).toBe(404);
    expect((await tp.app.inject({ method: 'PATCH', url: `/v2/projects/${exid}/logos/${foreign.id}`, headers: owner.auth, payload: {} })).statusCode).toBe(400);
  });
});

describe('project thumbnail', () => {
  it('is set from an upload, then from a camera’s latest recorded frame, served as JPEG, and deleted', async () => {
    const { owner, exid, id } = await setup();
    expect((await tp.app.inject({ method: 'GET', url: `/v2/projects/${exid}/thumbnail`, headers: owner.auth })).statusCode).toBe(404);
    const up = await tp.app.inject({
      method: 'PUT',
      url: `/v2/projects/${exid}/thumbnail`,
      headers: owner.auth,
      payload: { image: b64(await png(2000, 1000, '#ff0000')) },
    });
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json()).toMatchObject({ source: 'upload', camera_exid: null, width: 1280, height: 640 });
    const got = await tp.app.inject({ method: 'GET', url: `/v2/projects/${exid}/thumbnail`, headers: owner.auth });
    expect(got.headers['content-type']).toBe('image/jpeg');
    expect(got.headers['x-thumbnail-source']).toBe('upload');
    expect(await sharp(got.rawPayload).metadata()).toMatchObject({ format: 'jpeg', width: 1280, height: 640 });
    expect(projectFiles(id)).toHaveLength(1);

    const cam = await tp.camera(owner, exid, 'Tower crane');
    const none = await tp.app.inject({
      method: 'POST',
      url: `/v2/projects/${exid}/thumbnail/from-camera`,
      headers: owner.auth,
      payload: { camera_exid: cam.exid },
    });
    expect(none.statusCode).toBe(404);
    await recordFrame(tp, owner, cam.exid);
    const latest = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${cam.exid}/recordings/snapshots/latest`, headers: owner.auth });
    const fromCam = await tp.app.inject({
      method: 'POST',
      url: `/v2/projects/${exid}/thumbnail/from-camera`,
      headers: owner.auth,
      payload: { camera_exid: cam.exid },
    });
    expect(fromCam.statusCode, fromCam.body).toBe(200);
    expect(fromCam.json()).toMatchObject({ source: 'camera', camera_exid: cam.exid });
    expect(latest.statusCode).toBe(200);
    expect(fromCam.json().taken_at).toBe(latest.json().created_at);
    const img = await tp.app.inject({ method: 'GET', url: `/v2/projects/${exid}/thumbnail`, headers: owner.auth });
    expect(img.headers['x-thumbnail-source']).toBe('camera');
    expect((await sharp(img.rawPayload).metadata()).format).toBe('jpeg');
    // The uploaded one is gone from storage.
    expect(projectFiles(id)).toHaveLength(1);

    // A camera of another project, an unknown camera: 400.
    const other = await setup();
    const foreignCam = await tp.camera(other.owner, other.exid, 'Elsewhere');
    for (const camera_exid of [foreignCam.exid, 'no-such-camera']) {
      const bad = await tp.app.inject({ method: 'POST', url: `/v2/projects/${exid}/thumbnail/from-camera`, headers: owner.auth, payload: { camera_exid } });
      expect(bad.statusCode, camera_exid).toBe(400);
    }
    const badUpload = await tp.app.inject({
      method: 'PUT',
      url: `/v2/projects/${exid}/thumbnail`,
      headers: owner.auth,
      payload: { image: b64(Buffer.from('GIF89a nope')) },
    });
    expect(badUpload.statusCode).toBe(400);

    expect((await tp.app.inject({ method: 'DELETE', url: `/v2/projects/${exid}/thumbnail`, headers: owner.auth })).statusCode).toBe(204);
    expect((await tp.app.inject({ method: 'GET', url: `/v2/projects/${exid}/thumbnail`, headers: owner.auth })).statusCode).toBe(404);
    expect((await tp.app.inject({ method: 'DELETE', url: `/v2/projects/${exid}/thumbnail`, headers: owner.auth })).statusCode).toBe(404);
    expect(projectFiles(id)).toHaveLength(0);
  });
});
