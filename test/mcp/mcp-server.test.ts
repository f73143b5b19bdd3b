// The MCP server on its own: health, its protected-resource metadata (RFC 9728) and 401 challenge,
// the credentials it takes (a platform JWT, an OAuth token for it) and refuses (API keys in any header,
// a logged-out session, a token for another resource), and the tools over recordings and PTZ, which
// act on the main API as the caller and apply its rules (a viewer cannot move a camera).
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ALL_SCOPES } from '../../src/platform/access/scopes.js';
import { snapshotKey } from '../../src/platform/recordings/snapshot-index.js';
import { obtainTokens, startOauthServers, type OauthServers } from '../helpers/oauth-servers.js';
import { connectWithBearer } from '../helpers/mcp-client.js';
import { fakeTemp, startFakeOpenMeteo, type FakeWeather } from '../platform/weather/fake-open-meteo.js';
import { servicesOf } from '../../src/platform/plugins/feature.js';

let s: OauthServers;
let weather: FakeWeather;
beforeAll(async () => {
  weather = await startFakeOpenMeteo();
  s = await startOauthServers({ OVERLOOK_WEATHER_URL: weather.url });
});
afterAll(async () => {
  await s.close();
  await weather.close();
});

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
const post = (headers: Record<string, string>, body: unknown = INIT, url = s.mcpUrl) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
const metadataUrl = () => `${new URL(s.mcpUrl).origin}/.well-known/oauth-protected-resource/mcp`;
const text = (r: unknown) => ((r as CallToolResult).content.find((c) => c.type === 'text') as { text: string }).text;

async function expect401(res: Response, what: string) {
  expect(res.status, what).toBe(401);
  expect(res.headers.get('www-authenticate'), what).toContain(`Bearer resource_metadata="${metadataUrl()}"`);
  expect((await res.json()).code).toBe('UNAUTHORIZED');
}

describe('service documents', () => {
  it('answers /health and publishes protected-resource metadata naming the main API', async () => {
    const h = await fetch(`${new URL(s.mcpUrl).origin}/health`);
    expect(h.status).toBe(200);
    expect(await h.json()).toEqual({ status: 'ok' });
    for (const url of [metadataUrl(), `${new URL(s.mcpUrl).origin}/.well-known/oauth-protected-resource`]) {
      const m = await (await fetch(url)).json();
      expect(m.resource).toBe(s.mcpUrl);
      expect(m.authorization_servers).toEqual([s.apiUrl]);
      expect(m.scopes_supported).toEqual(['mcp']);
    }
  });

  it('answers 401 with the resource_metadata challenge without a credential', async () => {
    await expect401(await post({}), 'no credential');
    await expect401(await post({ authorization: 'Basic abc' }), 'basic');
    await expect401(await post({ authorization: 'Bearer not-a-token' }), 'garbage');
  });
});

describe('credentials', () => {
  it('refuses an API key in any header', async () => {
    const owner = await s.tp.person('keys');
    const p = await s.tp.project(owner, 'Keyed');
    const key = await s.tp.key(owner, { projects: [p.exid], scopes: [...ALL_SCOPES] });
    for (const headers of <Record<string, string>[]>[
      { 'x-access-key': key.key },
      { 'x-api-key': key.key },
      { authorization: `Bearer ${key.key}` },
      { authorization: `Bearer ${owner.token}`, 'x-access-key': key.key },
    ]) {
      await expect401(await post(headers), Object.keys(headers).join('+'));
    }
  });

  it('takes a platform JWT, and refuses it once the session is logged out', async () => {
    const person = await s.tp.person('jwt');
    const p = await s.tp.project(person, 'JWT site');
    const client = await connectWithBearer(s.mcpUrl, person.token);
    try {
      const projects = JSON.parse(text(await client.callTool({ name: 'list_projects', arguments: {} })));
      expect(projects.map((x: { exid: string }) => x.exid)).toEqual([p.exid]);
    } finally {
      await client.close();
    }
    const out = await s.tp.app.inject({ method: 'DELETE', url: '/v2/auth/logout', headers: person.auth });
    expect(out.statusCode).toBe(204);
    await expect401(await post({ authorization: `Bearer ${person.token}` }), 'logged-out JWT');
  });

  it('takes an OAuth token issued for it, and refuses one issued for another resource', async () => {
    const person = await s.tp.person('oauth');
    const tokens = await obtainTokens(s, person);
    const ok = await post({ authorization: `Bearer ${tokens.access_token}` });
    expect(ok.status).toBe(200);
    const other = await s.extraMcp(); // another MCP server: another resource URL (port)
    const res = await post({ authorization: `Bearer ${tokens.access_token}` }, INIT, other.url);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
    // A purpose-bound platform token (another audience, same signing key) is no JWT for people either.
    const media = await servicesOf(s.tp.app).signer.signFor('overlook-media', { sub: person.id }, new Date(Date.now() + 60_000));
    await expect401(await post({ authorization: `Bearer ${media}` }), 'media token');
  });
});

describe('malformed requests', () => {
  it('answers 4xx, never 5xx, and checks the credential before reading the body', async () => {
    const person = await s.tp.person('malformed');
    const auth = { authorization: `Bearer ${person.token}` };
    const bad: [Record<string, string>, string][] = [
      [{ 'content-type': 'application/json' }, '{nope'],
      [{ 'content-type': 'application/json' }, '[]'],
      [{ 'content-type': 'application/json' }, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'no_such_tool' } })],
      [{ 'content-type': 'text/plain' }, 'hello'],
    ];
    for (const [headers, body] of bad) {
      const res = await fetch(s.mcpUrl, { method: 'POST', headers: { accept: 'application/json, text/event-stream', ...auth, ...headers }, body });
      expect(res.status, body).toBeLessThan(500);
    }
    // Without a credential, even a broken body gets the 401 challenge.
    await expect401(await fetch(s.mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{nope' }), 'broken body, no credential');
  });
});

describe('tools over recordings and PTZ', () => {
  it('returns the latest and nearest recorded snapshots as images, days and hours, presets, and moves to a preset as an editor only', async () => {
    const owner = await s.tp.person('site-owner');
    const project = await s.tp.project(owner, 'Harbour works');
    const cam = await s.tp.camera(owner, project.exid, 'Harbour cam');
    const viewer = await s.tp.person('viewer');
    await s.tp.addMember(owner, project.exid, viewer, 'viewer');

    // Two real frames, stored as the recorder would.
    const { id } = await servicesOf(s.tp.app).cameras.row(cam.exid);
    for (const [at, colour] of [
      ['2026-11-20T09:00:00.000Z', { r: 200, g: 30, b: 30 }],
      ['2026-11-20T11:00:00.000Z', { r: 30, g: 30, b: 200 }],
    ] as const) {
      const jpeg = await sharp({ create: { width: 320, height: 180, channels: 3, background: colour } })
        .jpeg()
        .toBuffer();
      const key = snapshotKey(id, new Date(at));
      await servicesOf(s.tp.app).storage.put(key, jpeg, 'image/jpeg');
      await servicesOf(s.tp.app).snapshotIndex.add({ cameraId: id, takenAt: new Date(at), objectKey: key, size: jpeg.length, source: 'schedule', note: null });
    }
    const meanOf = async (r: CallToolResult) => {
      const img = r.content.find((c) => c.type === 'image') as { data: string; mimeType: string };
      expect(img.mimeType).toBe('image/jpeg');
      const { channels } = await sharp(Buffer.from(img.data, 'base64')).stats();
      return channels.slice(0, 3).map((c) => Math.round(c.mean));
    };

    const client = await connectWithBearer(s.mcpUrl, viewer.token);
    try {
      const latest = (await client.callTool({ name: 'latest_snapshot', arguments: { camera_exid: cam.exid } })) as CallToolResult;
      expect(latest.isError, JSON.stringify(latest)).toBeFalsy();
      const [r1, , b1] = await meanOf(latest);
      expect(b1! - r1!).toBeGreaterThan(100); // blue: the 11:00 frame
      const nearest = (await client.callTool({
        name: 'nearest_snapshot',
        arguments: { camera_exid: cam.exid, timestamp: '2026-11-20T09:10:00Z' },
      })) as CallToolResult;
      const [r2, , b2] = await meanOf(nearest);
      expect(r2! - b2!).toBeGreaterThan(100); // red: the 09:00 frame
      expect(text(nearest)).toContain('2026-11-20T09:00:00');

      expect(JSON.parse(text(await client.callTool({ name: 'recording_days', arguments: { camera_exid: cam.exid, year: 2026, month: 11 } })))).toEqual({
        days: [20],
      });
      expect(
        JSON.parse(text(await client.callTool({ name: 'recording_hours', arguments: { camera_exid: cam.exid, year: 2026, month: 11, day: 20 } }))),
      ).toEqual({ hours: [9, 11] });
      const bad = (await client.callTool({ name: 'nearest_snapshot', arguments: { camera_exid: cam.exid, timestamp: 'yesterday-ish' } })) as CallToolResult;
      expect(bad.isError).toBe(true);
      expect(text(bad)).toMatch(/^400 /);

      // PTZ: the owner turns the camera and saves the position as a preset; the viewer sees it but may not move the camera.
      const turned = await s.tp.app.inject({
        method: 'POST',
        url: `/v2/cameras/${cam.exid}/ptz/relative`,
        headers: owner.auth,
        payload: { pan: 0.25, tilt: -0.1 },
      });
      expect(turned.statusCode, turned.body).toBe(200);
      const created = await s.tp.app.inject({
        method: 'POST',
        url: `/v2/cameras/${cam.exid}/ptz/presets/create`,
        headers: owner.auth,
        payload: { name: 'Gate' },
      });
      expect(created.statusCode, created.body).toBe(201);
      const token = created.json().token as string;
      const presets = JSON.parse(text(await client.callTool({ name: 'ptz_presets', arguments: { camera_exid: cam.exid } })));
      expect(presets.presets.map((p: { token: string }) => p.token)).toContain(token);
      const refused = (await client.callTool({ name: 'go_to_ptz_preset', arguments: { camera_exid: cam.exid, preset_token: token } })) as CallToolResult;
      expect(refused.isError).toBe(true);
      expect(text(refused)).toMatch(/^403 PERMISSION_DENIED/);
    } finally {
      await client.close();
    }

    const ownerClient = await connectWithBearer(s.mcpUrl, owner.token);
    try {
      const home = await s.tp.app.inject({ method: 'POST', url: `/v2/cameras/${cam.exid}/ptz/home`, headers: owner.auth });
      expect(home.statusCode, home.body).toBe(200);
      const moved = (await ownerClient.callTool({
        name: 'go_to_ptz_preset',
        arguments: { camera_exid: cam.exid, preset_token: 'no-such-preset' },
      })) as CallToolResult;
      expect(moved.isError).toBe(true);
      expect(text(moved)).toMatch(/^(400|404) /);
      const presets = await s.tp.app.inject({ method: 'GET', url: `/v2/cameras/${cam.exid}/ptz/presets`, headers: owner.auth });
      const token = presets.json().presets[0].token as string;
      const go = (await ownerClient.callTool({ name: 'go_to_ptz_preset', arguments: { camera_exid: cam.exid, preset_token: token } })) as CallToolResult;
      expect(go.isError, JSON.stringify(go)).toBeFalsy();
      const status = await s.tp.app.inject({ method: 'GET', url: `/v2/cameras/${cam.exid}/ptz/status`, headers: owner.auth });
      expect(status.statusCode).toBe(200);
      const { utc_time: _a, ...after } = JSON.parse(text(go));
      const { utc_time: _b, ...now } = status.json();
      expect(after).toEqual(now);
      expect(now.pan).not.toBe(home.json().pan); // it really moved away from home, to the preset
    } finally {
      await ownerClient.close();
    }
  });
});

describe('tools over weather and comments', () => {
  it('reads a site’s weather, lists comments, and adds one as an editor only (a mention notifies the member)', async () => {
    const owner = await s.tp.person('weather-owner');
    const project = await s.tp.project(owner, 'Quay works');
    const made = await s.tp.app.inject({
      method: 'POST',
      url: '/v2/cameras',
      headers: owner.auth,
      payload: { name: 'Quay cam', project_exid: project.exid, simulated: true, location: { lat: 53.35, lng: -6.26 } },
    });
    const cam = made.json() as { exid: string };
    const viewer = await s.tp.person('weather-viewer');
    await s.tp.addMember(owner, project.exid, viewer, 'viewer');

    const client = await connectWithBearer(s.mcpUrl, owner.token);
    try {
      const past = JSON.parse(text(await client.callTool({ name: 'weather', arguments: { project_exid: project.exid, date: '2026-11-01' } })));
      expect(past.days[0].hourly[13].temp).toBe(fakeTemp('2026-11-01', 13));
      const now = JSON.parse(text(await client.callTool({ name: 'weather', arguments: { project_exid: project.exid } })));
      expect(typeof now.current.temp).toBe('number');

      const added = (await client.callTool({
        name: 'add_comment',
        arguments: {
          project_exid: project.exid,
          camera_exid: cam.exid,
          content: `Crane lift at 10, @${viewer.email} please check`,
          timestamp: '2026-11-20T10:00:00Z',
          x: 0.25,
          y: 0.75,
        },
      })) as CallToolResult;
      expect(added.isError, text(added)).toBeFalsy();
      const listed = JSON.parse(text(await client.callTool({ name: 'list_comments', arguments: { project_exid: project.exid, camera_exid: cam.exid } })));
      expect(JSON.stringify(listed)).toContain('Crane lift at 10');
    } finally {
      await client.close();
    }
    const notes = await s.tp.app.inject({ method: 'GET', url: '/v2/notifications', headers: viewer.auth });
    expect(JSON.stringify(notes.json())).toContain('mention');

    const viewerClient = await connectWithBearer(s.mcpUrl, viewer.token);
    try {
      const refused = (await viewerClient.callTool({
        name: 'add_comment',
        arguments: { project_exid: project.exid, camera_exid: cam.exid, content: 'no', timestamp: '2026-11-20T10:00:00Z' },
      })) as CallToolResult;
      expect(refused.isError).toBe(true);
      expect(text(refused)).toMatch(/^403 PERMISSION_DENIED/);
    } finally {
      await viewerClient.close();
    }
  });
});
