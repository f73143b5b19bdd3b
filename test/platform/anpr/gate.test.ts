// The gate report's records in the main API: corrections of misread plates (editors, kept with who made
// them, the event takes the new plate) and gate cameras' roles (admins). Access rules per endpoint,
// then behaviour and refusals. Runs on SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkEndpointAccess, type EndpointSpec } from '../../helpers/access.js';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { ingest, ingestionToken } from './anpr-helpers.js';

let tp: TestPlatform;
beforeAll(async () => {
  tp = await buildTestPlatform();
});
afterAll(() => tp.close());

const withEvent: EndpointSpec['setup'] = async (t, w) => {
  const { token } = await ingestionToken(t, w.owner, w.cameraExid);
  const e = await ingest(t, w.cameraExid, token, { plate_number: 'AB12CDE', capture_time: '2026-11-20T08:00:00Z', direction: 'in' });
  return { eventId: e.id };
};
let n = 0;
const freshPlate = () => ({ plate: `ZZ${String(++n).padStart(2, '0')}ABC` });

describe('access (people only, closed to keys)', () => {
  const specs: [string, EndpointSpec][] = [
    [
      'POST …/anpr/{eventid}/corrections',
      {
        method: 'POST',
        url: (w) => `/v2/cameras/${w.cameraExid}/anpr/${w.extra.eventId}/corrections`,
        payload: freshPlate,
        scopes: [],
        role: 'editor',
        okStatus: 201,
        setup: withEvent,
      },
    ],
    [
      'GET /v2/projects/{exid}/anpr/corrections',
      { method: 'GET', url: (w) => `/v2/projects/${w.projectExid}/anpr/corrections`, scopes: [], role: 'viewer', okStatus: 200 },
    ],
    [
      'GET /v2/projects/{exid}/anpr/gates',
      { method: 'GET', url: (w) => `/v2/projects/${w.projectExid}/anpr/gates`, scopes: [], role: 'viewer', okStatus: 200 },
    ],
    [
      'PUT …/anpr/gate',
      { method: 'PUT', url: (w) => `/v2/cameras/${w.cameraExid}/anpr/gate`, payload: () => ({ role: 'entry' }), scopes: [], role: 'admin', okStatus: 200 },
    ],
  ];
  for (const [name, spec] of specs) it(name, () => checkEndpointAccess(tp, spec));
});

describe('corrections and gates', () => {
  let owner: Person;
  let project: string;
  let gateIn: string;
  let gateOut: string;
  let eventId: string;
  beforeAll(async () => {
    owner = await tp.person('owner');
    project = (await tp.project(owner, 'Depot')).exid;
    gateIn = (await tp.camera(owner, project, 'Gate in')).exid;
    gateOut = (await tp.camera(owner, project, 'Gate out')).exid;
    const { token } = await ingestionToken(tp, owner, gateIn);
    eventId = (await ingest(tp, gateIn, token, { plate_number: 'AB12 CDF', capture_time: '2026-11-20T08:00:00Z' })).id;
  });

  it('a correction changes the event’s plate, keeps the raw read and is listed with who made it', async () => {
    const res = await tp.app.inject({
      method: 'POST',
      url: `/v2/cameras/${gateIn}/anpr/${eventId}/corrections`,
      headers: owner.auth,
      payload: { plate: 'ab12 cde', note: ' F read as E ' },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      event_id: eventId,
      camera_exid: gateIn,
      plate_before: 'AB12CDF',
      plate_after: 'AB12CDE',
      note: 'F read as E',
      corrected_by: { email: owner.email },
    });
    const event = (await tp.app.inject({ method: 'GET', url: `/v2/cameras/${gateIn}/anpr/${eventId}`, headers: owner.auth })).json();
    expect(event).toMatchObject({ plate: 'AB12CDE', plate_raw: 'AB12 CDF' });
    const list = await tp.app.inject({ method: 'GET', url: `/v2/projects/${project}/anpr/corrections?event_id=${eventId}`, headers: owner.auth });
    expect(list.json()).toHaveLength(1);
    expect(list.json()[0]).toMatchObject({ plate_after: 'AB12CDE', corrected_by: { email: owner.email } });
  });

  it('refuses a correction to the same plate, a blank plate, an unknown event or one of another camera', async () => {
    const post = (cam: string, id: string, payload: object) =>
      tp.app.inject({ method: 'POST', url: `/v2/cameras/${cam}/anpr/${id}/corrections`, headers: owner.auth, payload });
    expect((await post(gateIn, eventId, { plate: 'AB12CDE' })).json().code).toBe('VALIDATION_ERROR');
    expect((await post(gateIn, eventId, { plate: ' -- ' })).statusCode).toBe(400);
    expect((await post(gateIn, eventId, { plate: 'X', extra: 1 })).statusCode).toBe(400);
    expect((await post(gateIn, '00000000-0000-4000-8000-000000000000', { plate: 'XY12ABC' })).statusCode).toBe(404);
    expect((await post(gateOut, eventId, { plate: 'XY12ABC' })).statusCode).toBe(404);
    expect((await post(gateIn, 'not-a-uuid', { plate: 'XY12ABC' })).statusCode).toBe(400);
    const event = (await tp.app.inject({ method: 'GET', url: `/v2/cameras/${gateIn}/anpr/${eventId}`, headers: owner.auth })).json();
    expect(event.plate).toBe('AB12CDE');
    const bad = await tp.app.inject({ method: 'GET', url: `/v2/projects/${project}/anpr/corrections?from=yesterday`, headers: owner.auth });
    expect(bad.statusCode).toBe(400);
  });

  it('marks cameras as entry, exit or both, lists them, and unmarks with none', async () => {
    const put = (cam: string, role: string) => tp.app.inject({ method: 'PUT', url: `/v2/cameras/${cam}/anpr/gate`, headers: owner.auth, payload: { role } });
    expect((await put(gateIn, 'entry')).json()).toEqual({ camera_exid: gateIn, role: 'entry' });
    expect((await put(gateOut, 'both')).statusCode).toBe(200);
    expect((await put(gateOut, 'exit')).statusCode).toBe(200);
    expect((await put(gateOut, 'sideways')).statusCode).toBe(400);
    const gates = async () =>
      (await tp.app.inject({ method: 'GET', url: `/v2/projects/${project}/anpr/gates`, headers: owner.auth }))
        .json()
        .map((g: { camera_exid: string; role: string }) => [g.camera_exid, g.role]);
    expect((await gates()).sort()).toEqual(
      [
        [gateIn, 'entry'],
        [gateOut, 'exit'],
      ].sort(),
    );
    expect((await put(gateIn, 'none')).statusCode).toBe(200);
    expect(await gates()).toEqual([[gateOut, 'exit']]);
  });
});
