// The activity timeline end to end: a synthetic working day (06:00–18:00, a frame every 5 minutes) with
// three known busy windows is stored through "capture now"; the main API's activity reads and the AI
// API's timeline (called with the person's JWT, membership checked by the main API) must return those
// windows as the busiest quarter hours, busiest first, and the still hours as next to nothing.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildAiApp } from '../../../src/ai/app.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { frame } from './synthetic-frames.js';

let tp: TestPlatform;
let ai: FastifyInstance;
let server: Server;
let picture: Buffer;
let owner: Person;
let viewer: Person;
let stranger: Person;
let projectExid: string;
let cameraExid: string;
let otherCameraExid: string;

/** Tomorrow (UTC), so the faked clock stays inside the sessions' lifetime. */
const DAY0 = (Math.floor(Date.now() / 86_400_000) + 1) * 86_400_000;
const DATE = new Date(DAY0).toISOString().slice(0, 10);
const hm = (h: number, m: number) => DAY0 + (h * 60 + m) * 60_000;
const iso = (h: number, m: number) => new Date(hm(h, m)).toISOString();
/** The busy windows and how many people move about in each; elsewhere two people stand still. */
const BUSY = [
  { at: [7, 0], people: 12 },
  { at: [11, 30], people: 8 },
  { at: [15, 45], people: 5 },
] as const;

beforeAll(async () => {
  server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/jpeg' }).end(picture));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const snapshotUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/snapshot.jpg`;
  tp = await buildTestPlatform({ OVERLOOK_ALLOWED_NETWORKS: '127.0.0.1/32' });
  const apiUrl = await tp.app.listen({ host: '127.0.0.1', port: 0 });
  ai = await buildAiApp({ apiUrl, logger: false });
  owner = await tp.person('owner');
  viewer = await tp.person('viewer');
  stranger = await tp.person('stranger');
  projectExid = (await tp.project(owner)).exid;
  await tp.addMember(owner, projectExid, viewer, 'viewer');
  const add = async (name: string) => {
    const res = await tp.app.inject({
      method: 'POST',
      url: '/v2/cameras',
      headers: owner.auth,
      payload: { name, project_exid: projectExid, snapshot_url: snapshotUrl, timezone: 'UTC' },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().exid as string;
  };
  cameraExid = await add('Site overview');
  otherCameraExid = await add('Quiet corner');

  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    for (let t = hm(6, 0); t < hm(18, 0); t += 5 * 60_000) {
      vi.setSystemTime(t);
      const minutes = (t - DAY0) / 60_000;
      const busy = BUSY.find((b) => minutes >= b.at[0] * 60 + b.at[1] && minutes < b.at[0] * 60 + b.at[1] + 15);
      picture = await frame(busy ? { n: minutes, people: busy.people, seed: minutes } : { n: minutes, people: 2, seed: 1 });
      const res = await tp.app.inject({ method: 'POST', url: `/v2/cameras/${cameraExid}/snapshots`, headers: owner.auth, payload: {} });
      expect(res.statusCode, res.body).toBe(201);
    }
  } finally {
    vi.useRealTimers();
  }
  await servicesOf(tp.app).pictureChecks.idle();
}, 120_000);
afterAll(async () => {
  await ai?.close();
  await tp?.close();
  await new Promise((resolve) => server.close(resolve));
});

const viaAi = (url: string, who: Person = viewer) => ai.inject({ method: 'GET', url, headers: who.auth });

describe('activity timeline', () => {
  it('returns the busy windows as the busiest quarter hours, busiest first (AI API)', async () => {
    const res = await viaAi(`/projects/${projectExid}/activity/busiest?date=${DATE}&limit=3`);
    expect(res.statusCode, res.body).toBe(200);
    const moments = res.json().moments as { camera_exid: string; start: string; end: string; score: number; peak_at: string }[];
    expect(moments.map((m) => m.start)).toEqual(BUSY.map((b) => iso(b.at[0], b.at[1])));
    for (const m of moments) {
      expect(m.camera_exid).toBe(cameraExid);
      expect(Date.parse(m.end) - Date.parse(m.start)).toBe(15 * 60_000);
      expect(m.peak_at >= m.start && m.peak_at < m.end).toBe(true);
    }
  });

  it('gives a camera’s day per quarter hour, the still hours next to nothing (AI API, x-api-key header too)', async () => {
    const res = await ai.inject({
      method: 'GET',
      url: `/projects/${projectExid}/cameras/${cameraExid}/activity?date=${DATE}`,
      headers: { 'x-api-key': viewer.token },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.from).toBe(iso(0, 0));
    expect(body.to).toBe(iso(24, 0));
    const quarters = body.quarters as { start: string; score: number; frames: number }[];
    expect(quarters[0]!.start).toBe(iso(6, 0));
    expect(quarters).toHaveLength(48);
    const busyStarts = new Set(BUSY.map((b) => iso(b.at[0], b.at[1])));
    const quiet = quarters.filter((q) => !busyStarts.has(q.start) && !BUSY.some((b) => q.start === iso(b.at[0], b.at[1] + 15)));
    const lowestBusy = Math.min(...quarters.filter((q) => busyStarts.has(q.start)).map((q) => q.score));
    for (const q of quiet) expect(q.score, q.start).toBeLessThan(lowestBusy / 5);
  });

  it('sums the project’s cameras, and answers a range as well as a day (main API)', async () => {
    const res = await tp.app.inject({
      method: 'GET',
      url: `/v2/projects/${projectExid}/activity?from=${iso(7, 0)}&to=${iso(8, 0)}`,
      headers: viewer.auth,
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.quarters.map((q: { start: string }) => q.start)).toEqual([iso(7, 0), iso(7, 15), iso(7, 30), iso(7, 45)]);
    expect(body.cameras.find((c: { camera_exid: string }) => c.camera_exid === otherCameraExid).quarters).toEqual([]);
  });

  it('refuses people outside the project, a camera of another project, bad spans, and API keys', async () => {
    expect((await viaAi(`/projects/${projectExid}/activity?date=${DATE}`, stranger)).statusCode).toBe(404);
    const elsewhere = await tp.project(stranger, 'Elsewhere');
    expect((await viaAi(`/projects/${elsewhere.exid}/cameras/${cameraExid}/activity?date=${DATE}`, stranger)).statusCode).toBe(404);
    const ownProject = await tp.project(viewer, 'Own');
    expect((await viaAi(`/projects/${ownProject.exid}/cameras/${cameraExid}/activity?date=${DATE}`)).statusCode).toBe(404);
    for (const q of [
      'date=2026-02-30',
      'date=yesterday',
      `from=${iso(8, 0)}&to=${iso(7, 0)}`,
      `from=${iso(7, 0)}`,
      `date=${DATE}&from=${iso(7, 0)}&to=${iso(8, 0)}`,
    ]) {
      const res = await viaAi(`/projects/${projectExid}/activity?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().code, q).toBe('VALIDATION_ERROR');
    }
    const key = await tp.key(owner, { projects: [projectExid], scopes: ['cameras:read', 'camera:recordings'] });
    expect((await ai.inject({ method: 'GET', url: `/projects/${projectExid}/activity?date=${DATE}`, headers: { 'x-api-key': key.key } })).statusCode).toBe(401);
    const direct = await tp.app.inject({ method: 'GET', url: `/v2/projects/${projectExid}/activity?date=${DATE}`, headers: key.headers });
    expect(direct.json().code).toBe('ENDPOINT_CLOSED_TO_KEYS');
  });

  it('publishes its paths in the AI API’s OpenAPI document', async () => {
    const doc = (await ai.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/projects/{exid}/activity', '/projects/{exid}/cameras/{camera_exid}/activity', '/projects/{exid}/activity/busiest']),
    );
  });
});
