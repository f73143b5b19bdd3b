// Every event kind the features record, caused through the real routes and heard by a subscriber on the
// local Mosquitto (docs/notifications.md, MQTT): the topic names the project, the camera (or `project`)
// and the type, the payload is the webhook's body, and each event arrives once.
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { until } from '../../helpers/webhook-receiver.js';
import { ingestionToken, push } from '../anpr/anpr-helpers.js';

const BROKER = 'mqtt://127.0.0.1:1883';
let tp: TestPlatform;
let sub: MqttClient;
let owner: Person;
let project: { exid: string };
let camera: { exid: string };
const heard: { topic: string; body: { id: string; type: string; project_exid: string; data: Record<string, unknown> } }[] = [];
const ofType = (type: string) => heard.filter((h) => h.body.type === type);

beforeAll(async () => {
  tp = await buildTestPlatform({ OVERLOOK_MQTT_URL: BROKER, OVERLOOK_OUTBOX_POLL_SECONDS: '0.1', OVERLOOK_OUTBOX_RETRY_SECONDS: '0.1' });
  owner = await tp.person('owner');
  project = await tp.project(owner, 'Broadcast');
  camera = await tp.camera(owner, project.exid, 'Gate');
  sub = await mqtt.connectAsync(BROKER);
  await sub.subscribeAsync(`overlook/${project.exid}/#`, { qos: 1 });
  sub.on('message', (topic, payload) => heard.push({ topic, body: JSON.parse(payload.toString()) }));
});
afterAll(async () => {
  await sub?.endAsync();
  await tp.close();
});

const req = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object, headers = owner.auth) =>
  tp.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

describe('events over MQTT', () => {
  it('camera.status_changed, when a health check finds a new status', async () => {
    expect((await req('GET', `/v2/cameras/${camera.exid}/health`)).statusCode).toBe(200);
    await until('the status change', () => ofType('camera.status_changed').length === 1);
    const [e] = ofType('camera.status_changed');
    expect(e!.topic).toBe(`overlook/${project.exid}/${camera.exid}/camera.status_changed`);
    expect(e!.body).toMatchObject({ project_exid: project.exid, data: { camera_exid: camera.exid, status: 'online', previous_status: 'waiting' } });
  });

  it('comment.created', async () => {
    const res = await req('POST', `/v2/projects/${project.exid}/comments`, {
      camera_exid: camera.exid,
      timestamp: '2026-11-20T10:00:00Z',
      position2d: { x: 0.5, y: 0.5 },
      content: 'Crane in the way',
    });
    expect(res.statusCode, res.body).toBe(201);
    await until('the comment', () => ofType('comment.created').length === 1);
    const [e] = ofType('comment.created');
    expect(e!.topic).toBe(`overlook/${project.exid}/${camera.exid}/comment.created`);
    expect(e!.body.data).toMatchObject({ comment_id: res.json().id, content: 'Crane in the way', camera_exid: camera.exid });
  });

  it('member.added, invitation.created and member.removed', async () => {
    const member = await tp.person('member');
    expect((await req('POST', `/v2/projects/${project.exid}/members`, { email: member.email, role: 'viewer' })).statusCode).toBe(201);
    expect((await req('POST', `/v2/projects/${project.exid}/members`, { email: 'nobody-yet@example.com', role: 'editor' })).statusCode).toBe(201);
    expect((await req('DELETE', `/v2/projects/${project.exid}/members/${member.id}`)).statusCode).toBe(204);
    await until('the three', () => ofType('member.added').length === 1 && ofType('invitation.created').length === 1 && ofType('member.removed').length === 1);
    expect(ofType('member.added')[0]!.topic).toBe(`overlook/${project.exid}/project/member.added`);
    expect(ofType('member.added')[0]!.body.data).toMatchObject({ user_id: member.id, role: 'viewer' });
    expect(ofType('invitation.created')[0]!.body.data).toMatchObject({ email: 'nobody-yet@example.com', role: 'editor' });
    expect(ofType('member.removed')[0]!.body.data).toMatchObject({ user_id: member.id });
  });

  it('anpr.plate_read for every read, anpr.watchlist_match for a watched plate', async () => {
    const { token } = await ingestionToken(tp, owner, camera.exid);
    expect((await req('POST', `/v2/projects/${project.exid}/anpr/watchlist`, { plate: 'WATCH 1', label: 'Stolen van' })).statusCode).toBe(201);
    expect((await push(tp, camera.exid, token, { plate: 'AB12 CDE' })).statusCode).toBe(201);
    expect((await push(tp, camera.exid, token, { plate: 'WATCH 1' })).statusCode).toBe(201);
    await until('two reads and one match', () => ofType('anpr.plate_read').length === 2 && ofType('anpr.watchlist_match').length === 1);
    expect(ofType('anpr.watchlist_match')[0]!.topic).toBe(`overlook/${project.exid}/${camera.exid}/anpr.watchlist_match`);
    expect(ofType('anpr.watchlist_match')[0]!.body.data).toMatchObject({ plate: 'WATCH1', watchlist_label: 'Stolen van' });
  });

  it('media_item.failed when a render ends without frames', async () => {
    // A timelapse: a clip over a range without frames is refused before it is queued.
    const res = await req('POST', `/v2/projects/${project.exid}/media-hub/timelapses`, {
      title: 'Empty',
      camera_exid: camera.exid,
      from_date: '2026-11-10T02:00:00Z',
      to_date: '2026-11-10T04:00:00Z',
      duration: 1,
    });
    expect(res.statusCode, res.body).toBe(201);
    await until('the render failed', () => ofType('media_item.failed').length === 1, 30_000);
    expect(ofType('media_item.failed')[0]!.body.data).toMatchObject({ media_item_id: res.json().id, kind: 'timelapse', title: 'Empty' });
  });

  it('key.revoked_by_leak, once per project the key reached', async () => {
    const key = await tp.key(owner, { projects: [project.exid], scopes: ['projects:read'] });
    const res = await tp.app.inject({ method: 'POST', url: '/v2/api-keys/leaks', payload: { keys: [key.key] } });
    expect(res.statusCode, res.body).toBeLessThan(300);
    await until('the revocation', () => ofType('key.revoked_by_leak').length === 1);
    expect(ofType('key.revoked_by_leak')[0]!.body.data).toMatchObject({ key_id: key.id });
  });

  it('each event arrived once', async () => {
    await new Promise((ok) => setTimeout(ok, 300));
    const ids = heard.map((h) => h.body.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
