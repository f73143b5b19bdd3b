// The site link end to end, with real processes of the built CLI on two hosts: the platform on this
// host, the recorder in a network namespace of its own (a site LAN behind a router). The recorder can
// reach the platform; the platform cannot reach the recorder, whose API listens on the namespace's own
// loopback. A file device on the recorder becomes a platform camera, its frames reach the platform's
// index, live view plays in ffmpeg through the platform's /hls, and a media-hub clip of it renders.
import { execFileSync, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ROOT, SLOW, overlook, serve, tempDir, type Served } from '../../helpers/cli.js';
import { until } from '../../helpers/site-processes.js';
import { available, siteHost, type SiteHost } from '../../helpers/netns.js';
import { makeTestVideo } from '../../helpers/recorder.js';

const canRun = available();
let site: SiteHost;
let platform: Served;
let recorder: ChildProcess | undefined;
let recorderOut = '';
const platformDir = tempDir('overlook-e2e-platform-');
const siteDir = tempDir('overlook-e2e-site-');
const RECORDER_PORT = 4000;
let token = '';
let projectExid = '';

const api = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(platform.url + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as any) : null, text };
};

/** Runs the CLI inside the site namespace to its end. */
function siteCli(args: string[]): Promise<{ status: number | null; out: string }> {
  const proc = site.run(process.execPath, [...CLI, ...args], { cwd: ROOT, env: { ...process.env, DATABASE_URL: '' } });
  let out = '';
  proc.stdout?.on('data', (d) => (out += d));
  proc.stderr?.on('data', (d) => (out += d));
  return new Promise((resolve) => proc.on('close', (status) => resolve({ status, out })));
}

/** Calls the recorder's own API from inside the namespace (the only place it can be reached). */
async function recorderApi(method: string, path: string, body?: unknown, bearer?: string): Promise<{ status: number; json: any }> {
  const script = `
    const res = await fetch('http://127.0.0.1:${RECORDER_PORT}' + ${JSON.stringify(path)}, {
      method: ${JSON.stringify(method)},
      headers: { 'content-type': 'application/json'${bearer ? `, authorization: 'Bearer ${bearer}'` : ''} },
      body: ${body ? JSON.stringify(JSON.stringify(body)) : 'undefined'},
    });
    const text = await res.text();
    process.stdout.write(JSON.stringify({ status: res.status, json: text ? JSON.parse(text) : null }));`;
  const proc = site.run(process.execPath, ['--input-type=module', '-e', script]);
  let out = '';
  proc.stdout?.on('data', (d) => (out += d));
  await new Promise((r) => proc.on('close', r));
  return JSON.parse(out) as { status: number; json: any };
}

beforeAll(async () => {
  if (!canRun) return;
  site = siteHost();
  platform = await serve(['serve', '--host', site.hostAddress, '--port', '0', '--data-dir', platformDir], {
    timeoutMs: SLOW,
  });
  const created = overlook(['users', 'create', '--email', 'site@example.com', '--password', 'correct horse 9', '--data-dir', platformDir]);
  expect(created.status, created.stderr).toBe(0);
  const login = await fetch(`${platform.url}/v2/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'site@example.com', password: 'correct horse 9' }),
  });
  token = ((await login.json()) as { token: string }).token;
  projectExid = (await api('POST', '/v2/projects', { name: 'Harbour Tower' })).json.exid;
}, SLOW);

afterAll(async () => {
  if (!canRun) return;
  recorder?.kill('SIGTERM');
  await platform?.stop();
});

describe.skipIf(!canRun)('the site link across hosts', () => {
  it(
    'links by code, shares a file device as a camera, stores its frames, plays its live view and renders a clip; the platform never connects to the site',
    async () => {
      // Pairing: a wrong code exits non-zero; the right one links.
      const link = await api('POST', `/v2/projects/${projectExid}/recorder-links`, { name: 'North gate' });
      expect(link.status, link.text).toBe(201);
      const wrong = await siteCli(['recorder', 'link', '--platform', platform.url, '--code', 'WRONG-CODE', '--data-dir', siteDir]);
      expect(wrong.status).not.toBe(0);
      const linked = await siteCli(['recorder', 'link', '--platform', platform.url, '--code', link.json.pairing_code, '--data-dir', siteDir]);
      expect(linked.status, linked.out).toBe(0);

      const admin = await siteCli([
        'recorder',
        'users',
        'create',
        '--email',
        'admin@site.example',
        '--password',
        'password-123',
        '--role',
        'admin',
        '--data-dir',
        siteDir,
      ]);
      expect(admin.status, admin.out).toBe(0);
      const media = join(siteDir, 'recorder', 'media');
      mkdirSync(media, { recursive: true });
      const video = makeTestVideo(media, 6);

      recorder = site.run(process.execPath, [...CLI, 'recorder', 'serve', '--port', String(RECORDER_PORT), '--data-dir', siteDir], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: '', OVERLOOK_RECORDER_SEGMENT_SECONDS: '2' },
      });
      recorder.stdout?.on('data', (d) => (recorderOut += d));
      recorder.stderr?.on('data', (d) => (recorderOut += d));
      await until('the recorder to listen', async () => recorderOut.includes('recorder listening'), SLOW);

      const signIn = await recorderApi('POST', '/api/users/login', { username: 'admin@site.example', password: 'password-123' });
      const bearer = signIn.json.access_token as string;
      const device = await recorderApi('POST', '/api/devices', { name: 'Crane cam', type: 'file', stream_config: { path: video } }, bearer);
      expect(device.status, JSON.stringify(device.json)).toBe(201);

      // The device becomes a camera of the linked project.
      const camera = await until('the linked camera', async () => {
        const cams = await api('GET', `/v2/projects/${projectExid}/cameras`);
        const list = (Array.isArray(cams.json) ? cams.json : (cams.json?.cameras ?? [])) as { exid: string; name: string; kind?: string }[];
        return list.find((c) => c.name === 'Crane cam');
      });
      expect(camera.kind).toBe('linked');

      // Cloud recording at 12 frames a minute: frames arrive in the platform's index.
      const rec = await api('PUT', `/v2/cameras/${camera.exid}/cloud-recordings`, { status: 'on', frequency: 12 });
      expect(rec.status, rec.text).toBeLessThan(300);
      await until(
        () => `two frames in the index (recorder said: ${recorderOut.slice(-2500)}; platform said: ${platform.output().slice(-2500)})`,
        async () => {
          const frames = await api('GET', `/v2/cameras/${camera.exid}/recordings/snapshots`);
          const list = (frames.json?.data ?? []) as unknown[];
          return list.length >= 2;
        },
        90_000,
      );

      // Live view through the link plays in ffmpeg.
      const master = `${platform.url}/v2/cameras/${camera.exid}/hls`;
      execFileSync('ffmpeg', ['-v', 'error', '-headers', `Authorization: Bearer ${token}\r\n`, '-i', master, '-t', '2', '-f', 'null', '-'], {
        timeout: 60_000,
      });

      // A media-hub clip of the recorded frames renders.
      const from = new Date(Date.now() - 10 * 60_000).toISOString();
      const to = new Date(Date.now() + 60_000).toISOString();
      const clip = await api('POST', `/v2/projects/${projectExid}/media-hub/clips`, {
        title: 'Site',
        camera_exid: camera.exid,
        from_date: from,
        to_date: to,
        fps: 2,
        width: 160,
      });
      expect(clip.status, clip.text).toBe(201);
      const item = await until(
        'the clip to render',
        async () => {
          const got = await api('GET', `/v2/projects/${projectExid}/media-hub/${clip.json.id}`);
          return ['completed', 'failed'].includes(got.json?.status) ? got.json : null;
        },
        90_000,
      );
      expect(item.status, item.error).toBe('completed');

      // Every TCP connection in the namespace is the recorder's own, going out to the platform; a
      // connection into the namespace from this host is refused.
      const port = new URL(platform.url).port;
      const conns = site
        .exec('ss', ['-Htn', 'state', 'established'])
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => l.trim().split(/\s+/).slice(-2));
      const external = conns.filter(([local]) => !local!.startsWith('127.0.0.1') && !local!.startsWith('[::1]'));
      expect(external.length).toBeGreaterThan(0);
      for (const [, peer] of external) expect(peer).toBe(`${site.hostAddress}:${port}`);
      const inbound = await new Promise<string>((resolve) => {
        const c = connect(RECORDER_PORT, site.siteAddress);
        c.on('connect', () => resolve('connected'));
        c.on('error', (e) => resolve((e as NodeJS.ErrnoException).code ?? 'error'));
      });
      expect(inbound).toBe('ECONNREFUSED');

      // Revoking reaches the recorder.
      const revoked = await api('DELETE', `/v2/projects/${projectExid}/recorder-links/${link.json.id}`);
      expect(revoked.status).toBe(204);
      await until(
        'the recorder to see the link revoked',
        async () => {
          const state = await recorderApi('GET', '/api/link', undefined, bearer);
          return JSON.stringify(state.json).includes('revoked');
        },
        30_000,
      );
    },
    SLOW * 2,
  );
});
