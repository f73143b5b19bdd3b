// Cloud recording settings (GET/PUT /v2/cameras/{camera_exid}/cloud-recordings): people only, viewer
// reads, admin writes; defaults; partial updates; every bad field is a 400 naming it; schedules.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { checkEndpointAccess } from '../../helpers/access.js';
import { isInSchedule, localWeekMinute, normaliseSchedule, parseSchedule } from '../../../src/platform/recordings/recording-schedule.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';

let tp: TestPlatform;
let owner: Person;
let cameraExid: string;
let projectExid: string;
beforeAll(async () => {
  tp = await buildTestPlatform();
  owner = await tp.person('owner');
  projectExid = (await tp.project(owner)).exid;
  cameraExid = (await tp.camera(owner, projectExid)).exid;
});
afterAll(async () => tp.close());

const url = (exid = cameraExid) => `/v2/cameras/${exid}/cloud-recordings`;
const put = (payload: unknown, headers = owner.auth, exid = cameraExid) =>
  tp.app.inject({ method: 'PUT', url: url(exid), headers, payload: payload as object });

describe('access', () => {
  it('GET cloud-recordings: people only', async () => {
    await checkEndpointAccess(tp, { method: 'GET', url: (w) => url(w.cameraExid), scopes: [], role: 'viewer', okStatus: 200 });
  });
  it('PUT cloud-recordings: people only', async () => {
    await checkEndpointAccess(tp, {
      method: 'PUT',
      url: (w) => url(w.cameraExid),
      payload: () => ({ status: 'on' }),
      scopes: [],
      role: 'admin',
      okStatus: 200,
    });
  });
  it('viewers read, only admins write, strangers see nothing', async () => {
    const viewer = await tp.person('viewer');
    const editor = await tp.person('editor');
    const admin = await tp.person('admin');
    await tp.addMember(owner, projectExid, viewer, 'viewer');
    await tp.addMember(owner, projectExid, editor, 'editor');
    await tp.addMember(owner, projectExid, admin, 'admin');
    expect((await tp.app.inject({ method: 'GET', url: url(), headers: viewer.auth })).statusCode).toBe(200);
    const byEditor = await put({ status: 'on' }, editor.auth);
    expect(byEditor.statusCode).toBe(403);
    expect(byEditor.json().code).toBe('PERMISSION_DENIED');
    expect((await put({ frequency: 2 }, admin.auth)).statusCode).toBe(200);
    const stranger = await tp.person('stranger');
    expect((await tp.app.inject({ method: 'GET', url: url(), headers: stranger.auth })).statusCode).toBe(404);
    expect((await tp.app.inject({ method: 'GET', url: url('nope-nopee'), headers: owner.auth })).statusCode).toBe(404);
  });
});

describe('behaviour', () => {
  it('a new camera does not record: status off, 1 a minute, kept forever, no schedule', async () => {
    const cam = await tp.camera(owner, projectExid, 'Fresh camera');
    const res = await tp.app.inject({ method: 'GET', url: url(cam.exid), headers: owner.auth });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ camera_exid: cam.exid, status: 'off', frequency: 1, storage_duration: -1, schedule: null, updated_at: null });
  });

  it('saves settings, keeps fields left out, normalises the schedule, and stores a row', async () => {
    const res = await put({ status: 'on', frequency: 12, storage_duration: 30, schedule: { friday: ['13:00-17:30', '08:00-12:00'], monday: ['00:00-24:00'] } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ camera_exid: cameraExid, status: 'on', frequency: 12, storage_duration: 30 });
    expect(body.schedule).toEqual({
      monday: ['00:00-24:00'],
      tuesday: [],
      wednesday: [],
      thursday: [],
      friday: ['08:00-12:00', '13:00-17:30'],
      saturday: [],
      sunday: [],
    });
    expect(Date.parse(body.updated_at)).toBeGreaterThan(0);

    const paused = (await put({ status: 'paused' })).json();
    expect(paused).toMatchObject({ status: 'paused', frequency: 12, storage_duration: 30 });
    expect(paused.schedule.friday).toEqual(['08:00-12:00', '13:00-17:30']);
    const cleared = (await put({ schedule: null, storage_duration: -1 })).json();
    expect(cleared).toMatchObject({ status: 'paused', schedule: null, storage_duration: -1 });

    const again = (await tp.app.inject({ method: 'GET', url: url(), headers: owner.auth })).json();
    expect(again).toEqual(cleared);
    const id = (await servicesOf(tp.app).cameras.row(cameraExid)).id;
    const row = await tp.t.db.kysely.selectFrom('camera_recording_settings').selectAll().where('camera_id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'paused', frequency: 12, storage_duration: -1, schedule: null, updated_by: owner.id });
  });

  it.each([
    [{ status: 'recording' }, 'status'],
    [{ frequency: 0 }, 'frequency'],
    [{ frequency: 61 }, 'frequency'],
    [{ frequency: 1.5 }, 'frequency'],
    [{ frequency: '5' }, 'frequency'],
    [{ storage_duration: 0 }, 'storage_duration'],
    [{ storage_duration: -2 }, 'storage_duration'],
    [{ storage_duration: 100000 }, 'storage_duration'],
    [{ schedule: { funday: ['08:00-09:00'] } }, 'funday'],
    [{ schedule: { monday: ['8:00-9:00'] } }, 'monday'],
    [{ schedule: { monday: ['08:00-25:00'] } }, 'monday'],
    [{ schedule: { monday: ['18:00-08:00'] } }, 'monday'],
    [{ schedule: { monday: ['09:00-09:00'] } }, 'monday'],
    [{ schedule: { monday: ['08:00-12:00', '11:00-13:00'] } }, 'monday'],
    [{ schedule: { monday: '08:00-12:00' } }, 'monday'],
    [{ schedule: ['08:00-12:00'] }, 'schedule'],
    [{ schedule: { monday: Array.from({ length: 25 }, (_, i) => `00:${String(i).padStart(2, '0')}-00:${String(i + 1).padStart(2, '0')}`) } }, 'monday'],
    [{ status: 'on', colour: 'red' }, 'colour'],
  ])('refuses %j with 400 naming %s', async (payload, field) => {
    const res = await put(payload);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(res.json())).toContain(field);
  });

  it('refuses a body that is not an object', async () => {
    const res = await tp.app.inject({ method: 'PUT', url: url(), headers: { ...owner.auth, 'content-type': 'application/json' }, payload: '"on"' });
    expect(res.statusCode).toBe(400);
    const bad = await tp.app.inject({ method: 'PUT', url: url(), headers: { ...owner.auth, 'content-type': 'application/json' }, payload: '{"status":' });
    expect(bad.statusCode).toBe(400);
  });

  it('settings go when the camera goes', async () => {
    const cam = await tp.camera(owner, projectExid, 'Short-lived');
    expect((await put({ status: 'on' }, owner.auth, cam.exid)).statusCode).toBe(200);
    const row = await tp.t.db.kysely.selectFrom('cameras').select('id').where('exid', '=', cam.exid).executeTakeFirstOrThrow();
    await tp.t.db.kysely.deleteFrom('cameras').where('id', '=', row.id).execute();
    const left = await tp.t.db.kysely.selectFrom('camera_recording_settings').select('camera_id').where('camera_id', '=', row.id).execute();
    expect(left).toEqual([]);
  });
});

describe('schedules in the camera time zone', () => {
  it('reads local weekday and minute, daylight saving included', () => {
    // 2026-07-06 is a Monday; London is UTC+1 in summer, Tokyo UTC+9.
    expect(localWeekMinute(new Date('2026-07-06T07:30:00Z'), 'Europe/London')).toEqual({ day: 'monday', minute: 8 * 60 + 30 });
    expect(localWeekMinute(new Date('2026-07-05T22:00:00Z'), 'Asia/Tokyo')).toEqual({ day: 'monday', minute: 7 * 60 });
    expect(localWeekMinute(new Date('2026-12-07T08:30:00Z'), 'Europe/London')).toEqual({ day: 'monday', minute: 8 * 60 + 30 });
  });

  it('is inside a window from its start up to (not including) its end', () => {
    const s = parseSchedule(normaliseSchedule({ monday: ['08:00-18:00'], sunday: ['22:00-24:00'] }));
    expect(isInSchedule(s, 'Europe/London', new Date('2026-07-06T07:00:00Z'))).toBe(true); // 08:00 local
    expect(isInSchedule(s, 'Europe/London', new Date('2026-07-06T06:59:00Z'))).toBe(false);
    expect(isInSchedule(s, 'Europe/London', new Date('2026-07-06T17:00:00Z'))).toBe(false); // 18:00 local
    expect(isInSchedule(s, 'UTC', new Date('2026-07-05T23:59:00Z'))).toBe(true); // Sunday 23:59
    expect(isInSchedule(s, 'UTC', new Date('2026-07-07T10:00:00Z'))).toBe(false); // Tuesday: no windows
    expect(isInSchedule(null, 'UTC', new Date())).toBe(true);
  });
});
