// Players on other origins (docs/security.md, "Browsers on other origins") in a real browser (Debian's
// Chromium driven by playwright-core): a page served by a small static server on another port loads
// hls.js from node_modules and plays the platform's live view of a simulated camera (its media playlist
// URL fetched first with the person's JWT, a cross-origin call that needs a preflight) and a recorder's
// live view (`?token=`, as the recorder UI plays it). From a listed origin the video's time moves on;
// from any other origin the browser refuses the answers: the fetch rejects, hls.js reports a manifest
// load error, and nothing plays. Code that runs in the page is passed as strings: the suite is
// type-checked without the DOM's types.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type TestBrowser } from '../helpers/browser.js';
import { buildTestPlatform, type Person, type TestPlatform } from '../helpers/platform.js';
import { buildTestRecorder, eventually, type TestRecorder } from '../helpers/recorder.js';

const HLS_JS = readFileSync(createRequire(import.meta.url).resolve('hls.js/dist/hls.min.js'));

/**
 * The player page. `playCamera` asks the platform for the media playlist URL with the JWT (CORS with a
 * preflight), then hands it to hls.js; `playUrl` plays a playlist URL that carries its own token. Load
 * timeouts are generous: the first playlist waits for ffmpeg to start on a busy machine.
 */
const PLAYER = `<!doctype html>
<html><head><meta charset="utf-8"><title>Player elsewhere</title></head>
<body><video id="v" muted playsinline></video>
<script src="/hls.min.js"></script>
<script>
  window.state = { errors: [], fatal: null, fetchError: null };
  const patient = { maxTimeToFirstByteMs: 60000, maxLoadTimeMs: 90000, timeoutRetry: { maxNumRetry: 2, retryDelayMs: 0, maxRetryDelayMs: 0 }, errorRetry: { maxNumRetry: 1, retryDelayMs: 500, maxRetryDelayMs: 2000 } };
  window.playUrl = (src) => {
    const video = document.getElementById('v');
    const hls = new Hls({ manifestLoadPolicy: { default: patient }, playlistLoadPolicy: { default: patient }, fragLoadPolicy: { default: patient } });
    hls.on(Hls.Events.ERROR, (_event, data) => {
      state.errors.push(data.details);
      if (data.fatal) state.fatal = data.details;
    });
    hls.on(Hls.Events.MANIFEST_PARSED, () => video.play().catch((e) => state.errors.push('play: ' + e.message)));
    hls.loadSource(src);
    hls.attachMedia(video);
  };
  window.playCamera = async (api, camera, jwt) => {
    try {
      const res = await fetch(api + '/v2/cameras/' + camera + '/hls?format=json', { headers: { authorization: 'Bearer ' + jwt } });
      if (!res.ok) throw new Error('HTTP ' + res.status);
      playUrl((await res.json()).playlist_url);
    } catch (e) {
      state.fetchError = String(e);
    }
  };
</script></body></html>`;

/** One static server answering on two ports: two origins, the same page. */
async function serveStatic(): Promise<{ allowed: string; other: string; close(): Promise<void> }> {
  const servers: Server[] = [];
  const listen = async () => {
    const server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/player.html') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PLAYER);
      else if (path === '/hls.min.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(HLS_JS);
      else res.writeHead(404).end();
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  const allowed = await listen();
  const other = await listen();
  return { allowed, other, close: async () => void (await Promise.all(servers.map((s) => new Promise((r) => s.close(r))))) };
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

/** The platform on a real port that its public URL names (the playlist URL it hands out is absolute). */
async function listeningPlatform(env: Record<string, string>): Promise<{ tp: TestPlatform; url: string }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const tp = await buildTestPlatform({ ...env, OVERLOOK_PUBLIC_URL: url });
    try {
      await tp.app.listen({ host: '127.0.0.1', port });
      return { tp, url };
    } catch (e) {
      // Another test process took the port between the check and the listen: try another.
      await tp.close();
      if (attempt >= 5 || (e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
    }
  }
}

let pages: Awaited<ReturnType<typeof serveStatic>>;
let browser: TestBrowser;
let platform: { tp: TestPlatform; url: string };
let owner: Person;
let cam: { exid: string };
let rec: TestRecorder;
let recUrl: string;
let deviceId: string;

beforeAll(async () => {
  pages = await serveStatic();
  const cors = { OVERLOOK_CORS_ORIGINS: pages.allowed };
  platform = await listeningPlatform(cors);
  owner = await platform.tp.person('cors-viewer');
  const project = await platform.tp.project(owner);
  cam = await platform.tp.camera(owner, project.exid, 'Simulated');
  rec = await buildTestRecorder(cors);
  recUrl = await rec.app.listen({ host: '127.0.0.1', port: 0 });
  const res = await rec.app.inject({
    method: 'POST',
    url: '/api/devices',
    headers: rec.bearer(rec.adminToken),
    payload: { name: 'Live', type: 'file', stream_config: { path: rec.video } },
  });
  expect(res.statusCode, res.body).toBe(201);
  deviceId = res.json().id;
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await rec?.close();
  await platform?.tp.close();
  await pages?.close();
});

async function open(origin: string): Promise<Page> {
  const context = await browser.newContext({ width: 640, height: 480 });
  const page = await context.newPage();
  await page.goto(`${origin}/player.html`);
  return page;
}

const state = (page: Page) => page.evaluate<{ errors: string[]; fatal: string | null; fetchError: string | null }>('window.state');
const currentTime = (page: Page) => page.evaluate<number>('document.getElementById("v").currentTime');

/** The video's time moves on (frames decoded and playing), or the page's errors in the failure. */
async function expectPlaying(page: Page) {
  await eventually(
    async () => {
      const s = await state(page);
      if (s.fatal) throw new Error(`hls.js gave up: ${JSON.stringify(s)}`);
      return (await currentTime(page)) > 0;
    },
    120_000,
    'the video to start',
  );
  const t0 = await currentTime(page);
  await expect.poll(() => currentTime(page), { timeout: 60_000, interval: 500 }).toBeGreaterThan(t0 + 1);
}

/** hls.js gave up on the playlist with a network error and the video never moved. */
async function expectRefused(page: Page) {
  await expect.poll(async () => (await state(page)).fatal, { timeout: 60_000, interval: 500 }).toBe('manifestLoadError');
  expect(await currentTime(page)).toBe(0);
  expect(await page.evaluate<number>('document.getElementById("v").readyState')).toBe(0);
}

const mediaPlaylistUrl = async () => {
  const res = await platform.tp.app.inject({ method: 'GET', url: `/v2/cameras/${cam.exid}/hls?format=json`, headers: owner.auth });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().playlist_url as string;
};
const recorderPlaylist = () => `${recUrl}/api/devices/${deviceId}/hls/index.m3u8?token=${rec.userToken}`;
/** The recorder's live playlist answers (its ffmpeg has written segments): the player can start. */
const recorderLive = () => eventually(async () => (await fetch(recorderPlaylist())).status === 200, 60_000, 'the recorder live playlist');

describe('platform live view from another origin', () => {
  it('preflight of the playlist call from the listed origin: 204 with the headers the player needs', async () => {
    for (const path of [`/v2/cameras/${cam.exid}/hls`, `/v2/cameras/${cam.exid}/hls/live.m3u8`]) {
      const pre = await platform.tp.app.inject({
        method: 'OPTIONS',
        url: path,
        headers: { origin: pages.allowed, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization, range' },
      });
      expect(pre.statusCode, path).toBe(204);
      expect(pre.headers['access-control-allow-origin']).toBe(pages.allowed);
      expect(String(pre.headers['access-control-allow-methods'])).toContain('GET');
      expect(String(pre.headers['access-control-allow-headers']).split(/\s*,\s*/)).toEqual(expect.arrayContaining(['authorization', 'range']));
      expect(pre.headers['access-control-allow-credentials']).toBeUndefined();
      expect(String(pre.headers.vary)).toMatch(/origin/i);
      const refused = await platform.tp.app.inject({
        method: 'OPTIONS',
        url: path,
        headers: { origin: pages.other, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
      });
      expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    }
    // The answers themselves name the origin and let its page read the headers a player uses.
    const media = new URL(await mediaPlaylistUrl());
    const res = await platform.tp.app.inject({ method: 'GET', url: media.pathname + media.search, headers: { origin: pages.allowed } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(pages.allowed);
    expect(String(res.headers['access-control-expose-headers']).split(/\s*,\s*/)).toEqual(
      expect.arrayContaining(['retry-after', 'www-authenticate', 'content-range', 'accept-ranges', 'x-snapshot-date']),
    );
  });

  it('a listed origin: the JWT fetch passes CORS and hls.js plays the simulated camera', async () => {
    const page = await open(pages.allowed);
    await page.evaluate(`playCamera(${JSON.stringify(platform.url)}, ${JSON.stringify(cam.exid)}, ${JSON.stringify(owner.token)})`);
    expect((await state(page)).fetchError).toBeNull();
    await expectPlaying(page);
    await page.context().close();
  });

  it('another origin: the JWT fetch is refused by the browser, and hls.js on a valid playlist URL gets a manifest load error', async () => {
    const page = await open(pages.other);
    await page.evaluate(`playCamera(${JSON.stringify(platform.url)}, ${JSON.stringify(cam.exid)}, ${JSON.stringify(owner.token)})`);
    // Chromium's message for a CORS refusal: the script learns nothing of the answer.
    expect((await state(page)).fetchError).toMatch(/TypeError: Failed to fetch/);
    // Even a valid media token does not help a page on an origin that is not listed.
    await page.evaluate(`playUrl(${JSON.stringify(await mediaPlaylistUrl())})`);
    await expectRefused(page);
    await page.context().close();
  });
});

describe('recorder live view from another origin', () => {
  it('preflight from the listed origin: 204 for the playlist route; none for another origin', async () => {
    const path = `/api/devices/${deviceId}/hls/index.m3u8`;
    const pre = await rec.app.inject({
      method: 'OPTIONS',
      url: path,
      headers: { origin: pages.allowed, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(pre.statusCode).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe(pages.allowed);
    const refused = await rec.app.inject({
      method: 'OPTIONS',
      url: path,
      headers: { origin: pages.other, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('a listed origin: hls.js plays the recorder live playlist with ?token=', async () => {
    await recorderLive();
    const page = await open(pages.allowed);
    await page.evaluate(`playUrl(${JSON.stringify(recorderPlaylist())})`);
    await expectPlaying(page);
    await page.context().close();
  });

  it('another origin: the same playlist gives hls.js a manifest load error and nothing plays', async () => {
    await recorderLive();
    const page = await open(pages.other);
    await page.evaluate(`playUrl(${JSON.stringify(recorderPlaylist())})`);
    await expectRefused(page);
    await page.context().close();
  });
});
