// The recorder's web UI in a real browser (Debian's Chromium driven by playwright-core) against a real
// recorder recording a `file` device: sign in (a wrong password first), the device list, live video with
// its transport label (WebRTC when the recorder offers WHEP, its session deleted on leaving; HLS when
// WHEP is refused), the day's timeline and recorded playback, a clip exported and downloaded, at
// desktop and phone sizes; a revoked token returns to sign-in. Screenshots go to test-output/recorder-ui/. Code that runs
// in the page is passed as strings: the suite is type-checked without the DOM's types.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadedFile, launchBrowser, type TestBrowser } from '../../helpers/browser.js';
import { buildTestRecorder, eventually, makeTestVideo, type TestRecorder } from '../../helpers/recorder.js';

const SHOTS = join(import.meta.dirname, '..', '..', '..', 'test-output', 'recorder-ui');
const TZ = 'Europe/Berlin';

let r: TestRecorder;
let url: string;
let browser: TestBrowser | undefined;
let deviceId: string;
const cspViolations: string[] = [];
/** What the pages logged about WebRTC (why they fell back to HLS), for a failure's message. */
const webrtcNotes: string[] = [];

const runs = async () =>
  (await r.app.inject({ method: 'GET', url: `/api/devices/${deviceId}/recordings`, headers: r.bearer(r.adminToken) })).json() as {
    start_date: string;
    end_date: string;
  }[];
/** `HH:MM:SS` of an instant in the device's time zone, as the UI's time fields take it. */
const clockIn = (iso: string) => new Intl.DateTimeFormat('en-GB', { timeZone: TZ, hourCycle: 'h23', timeStyle: 'medium' }).format(new Date(iso));

async function newPage(viewport: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser!.newContext(viewport, { acceptDownloads: true });
  const page = await context.newPage();
  page.on('console', (m) => {
    if (/Content.Security.Policy/i.test(m.text())) cspViolations.push(m.text());
    if (/WebRTC/.test(m.text())) webrtcNotes.push(m.text());
  });
  return { context, page };
}

async function signIn(page: Page) {
  await page.goto(`${url}/`);
  await page.fill('#email', 'admin@example.com');
  await page.fill('#password', 'password-123');
  await page.press('#password', 'Enter');
  await page.waitForSelector('#devices:not([hidden])');
}

/** The video shows frames and its time moves on. */
async function expectPlaying(page: Page) {
  await expect.poll(() => page.evaluate<number>('document.querySelector("#video").videoWidth'), { timeout: 15_000 }).toBeGreaterThan(0);
  const t0 = await page.evaluate<number>('document.querySelector("#video").currentTime');
  await expect.poll(() => page.evaluate<number>('document.querySelector("#video").currentTime'), { timeout: 10_000 }).toBeGreaterThan(t0);
}

const transport = (page: Page) => page.textContent('#transport');
const hasWhep = () => r.app.hasRoute({ method: 'POST', url: '/api/devices/:id/webrtc' });

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  r = await buildTestRecorder();
  // File devices play only from the media folder.
  const mediaDir = r.config.mediaDir;
  mkdirSync(mediaDir, { recursive: true });
  // A minute long: the file loops only once the browser steps are done.
  const video = makeTestVideo(mediaDir, 60);
  const made = await r.app.inject({
    method: 'POST',
    url: '/api/devices',
    headers: r.bearer(r.adminToken),
    payload: { name: 'North gate', type: 'file', timezone: TZ, stream_config: { path: video } },
  });
  expect(made.statusCode, made.body).toBe(201);
  deviceId = made.json().id;
  url = await r.app.listen({ host: '127.0.0.1', port: 0 });
  browser = await launchBrowser();
  // A few one-second segments: enough for live HLS, the timeline and a 5 s clip.
  await eventually(
    async () => {
      const list = await runs();
      return list.length > 0 && Date.parse(list.at(-1)!.end_date) - Date.parse(list[0]!.start_date) >= 6000;
    },
    30_000,
    'six seconds recorded',
  );
});
afterAll(async () => {
  await browser?.close();
  await r?.close();
});

describe('the recorder web UI at desktop size', () => {
  let page: Page;
  /** The page's WHEP exchanges: `POST 201 application/sdp`, `DELETE 204`. */
  const whep: string[] = [];
  beforeAll(async () => {
    ({ page } = await newPage({ width: 1280, height: 800 }));
    page.on('response', (res) => {
      if (!new URL(res.url()).pathname.endsWith('/webrtc')) return;
      const req = res.request();
      const bearer = /^Bearer ort_/.test(req.headers().authorization ?? '') ? '' : ' without the token';
      whep.push(`${req.method()} ${res.status()}${req.method() === 'POST' ? ` ${req.headers()['content-type']}` : ''}${bearer}`);
    });
  });

  it('refuses a wrong password with a clear message, then signs in and lists the devices with their state', async () => {
    await page.goto(`${url}/`);
    await page.waitForSelector('#sign-in:not([hidden])');
    await page.fill('#email', 'admin@example.com');
    await page.fill('#password', 'not the password');
    await page.click('#sign-in-form button[type=submit]');
    await expect.poll(() => page.textContent('#sign-in-error')).toBe('Wrong e-mail or password.');
    await page.screenshot({ path: join(SHOTS, 'desktop-1-wrong-password.png') });

    await page.fill('#password', 'password-123');
    await page.press('#password', 'Enter');
    await page.waitForSelector('#devices:not([hidden])');
    expect(await page.evaluate('sessionStorage.getItem("overlook.recorder.token")')).toMatch(/^ort_/);
    const item = page.locator(`#device-list li[data-device-id="${deviceId}"]`);
    expect(await item.locator('a').textContent()).toBe('North gate');
    expect(await item.locator('.state').textContent()).toBe('Recording');
    await page.screenshot({ path: join(SHOTS, 'desktop-2-devices.png') });
  });

  it('opens the device: live video plays, labelled with its transport', async () => {
    await page.click('#device-list a');
    await page.waitForSelector('#device:not([hidden])');
    // WebRTC when the recorder answers WHEP offers; otherwise the HLS fallback.
    const expected = hasWhep() ? 'WebRTC' : 'HLS';
    await expect.poll(() => transport(page), { timeout: 15_000, message: `live view should play over ${expected} (${webrtcNotes.join('; ')})` }).toBe(expected);
    await expectPlaying(page);
    expect(await page.textContent('#mode')).toBe('Live');
    if (expected === 'WebRTC') expect(whep).toEqual(['POST 201 application/sdp']);
    // Every form control is labelled; the timeline is a named slider.
    const unlabelled = await page.evaluate('[...document.querySelectorAll("input, select")].filter((e) => e.labels.length === 0).map((e) => e.id)');
    expect(unlabelled).toEqual([]);
    expect(await page.getAttribute('#timeline', 'aria-label')).toBeTruthy();
    await page.screenshot({ path: join(SHOTS, 'desktop-3-live.png') });
  });

  it("shows the day's recordings on the timeline, and a click plays the recorded footage from there", async () => {
    await expect.poll(() => page.locator('#ranges .range').count()).toBeGreaterThan(0);
    expect(await page.textContent('#ranges-summary')).toMatch(/^1 recorded period/);
    // The left edge of the block: at (or a moment before) the start of the recording.
    await page
      .locator('#ranges .range')
      .first()
      .click({ position: { x: 0.5, y: 10 } });
    await expect.poll(() => page.textContent('#mode')).toMatch(/^Recorded, from /);
    // Leaving live view ends the WebRTC session on the recorder (the answer's Location).
    if (hasWhep()) await expect.poll(() => whep.at(-1)).toBe('DELETE 204');
    expect(await page.isVisible('#go-live')).toBe(true);
    await expect.poll(() => transport(page), { timeout: 15_000 }).toBe('HLS');
    await expectPlaying(page);
    expect(await page.isVisible('#cursor')).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'desktop-4-recorded.png') });

    // The keyboard does the same: the bar is a slider (Home: midnight, Enter: play). Nothing was
    // recorded at midnight, so the nearest recording plays, and the page says so.
    await page.focus('#timeline');
    await page.keyboard.press('Home');
    expect(await page.getAttribute('#timeline', 'aria-valuetext')).toBe('00:00:00');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.textContent('#player-note')).toContain('Nothing was recorded at 00:00:00; playing the nearest recording');
    await expectPlaying(page);

    await page.click('#go-live');
    await expect.poll(() => page.textContent('#mode')).toBe('Live');
    await expect.poll(() => transport(page), { timeout: 15_000 }).not.toBe('connecting…');
  });

  it('exports a clip: start and duration in the form, an MP4 downloaded', async () => {
    const [first] = await runs();
    await page.fill('#export-start', clockIn(first!.start_date));
    await page.fill('#export-duration', '5');
    const download = page.waitForEvent('download');
    await page.click('#export-button');
    const file = await downloadedFile(await download);
    await expect.poll(() => page.textContent('#export-status')).toMatch(/^Downloaded footage-.*\.mp4/);
    expect((await download).suggestedFilename()).toMatch(/^footage-.*\.mp4$/);
    const bytes = readFileSync(file);
    expect(bytes.length).toBeGreaterThan(1000);
    expect(bytes.subarray(4, 8).toString()).toBe('ftyp');
    const seconds = Number(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file]).toString().trim());
    expect(seconds).toBeGreaterThan(3);
    await page.screenshot({ path: join(SHOTS, 'desktop-5-exported.png'), fullPage: true });
  });

  it('returns to sign-in when the token stops working', async () => {
    const token = await page.evaluate<string>('sessionStorage.getItem("overlook.recorder.token")');
    expect((await r.app.inject({ method: 'DELETE', url: '/api/users/login', headers: r.bearer(token) })).statusCode).toBeLessThan(300);
    // The live player's next playlist request, or the next page's API call, meets the 401.
    await page.evaluate('location.hash = "#/"');
    await page.waitForSelector('#sign-in:not([hidden])');
    expect(await page.textContent('#status')).toContain('session has ended');
    expect(await page.evaluate('sessionStorage.getItem("overlook.recorder.token")')).toBeNull();
  });
});

describe('the recorder web UI at phone size', () => {
  it('is usable at 390 px: live over HLS when WHEP is refused, the timeline, an export', async () => {
    const { page } = await newPage({ width: 390, height: 844 });
    // The recorder refusing WebRTC (or having none): the page falls back to HLS.
    await page.route('**/api/devices/*/webrtc', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: '{}' }));
    await signIn(page);
    await page.screenshot({ path: join(SHOTS, 'phone-1-devices.png') });
    await page.click('#device-list a');
    await expect.poll(() => transport(page), { timeout: 15_000 }).toBe('HLS');
    await expectPlaying(page);
    await expect.poll(() => page.locator('#ranges .range').count()).toBeGreaterThan(0);
    // Nothing wider than the screen.
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.screenshot({ path: join(SHOTS, 'phone-2-device.png'), fullPage: true });

    const [first] = await runs();
    await page.fill('#export-start', clockIn(first!.start_date));
    await page.fill('#export-duration', '5');
    const download = page.waitForEvent('download');
    await page.press('#export-duration', 'Enter');
    expect(
      readFileSync(await downloadedFile(await download))
        .subarray(4, 8)
        .toString(),
    ).toBe('ftyp');
  });
});

describe('how the UI is served', () => {
  it('with a strict Content-Security-Policy and no sniffing or referrer, outside the API reference', async () => {
    for (const path of ['/', '/ui/app.js', '/ui/recorder.css', '/ui/vendor/hls.mjs']) {
      const res = await r.app.inject({ method: 'GET', url: path });
      expect(res.statusCode, path).toBe(200);
      const csp = res.headers['content-security-policy'] as string;
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("media-src 'self' blob:");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    }
    expect((await r.app.inject({ method: 'GET', url: '/ui/vendor/hls.mjs' })).headers['content-type']).toMatch(/^text\/javascript/);
    expect((await r.app.inject({ method: 'GET', url: '/ui/../package.json' })).statusCode).toBe(404);
    expect((await r.app.inject({ method: 'GET', url: '/ui/nothing-here.js' })).statusCode).toBe(404);
    const doc = (await r.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(Object.keys(doc.paths).filter((p) => !p.startsWith('/api/'))).toEqual([]);
  });
  it('the pages above ran without a Content-Security-Policy violation', () => {
    expect(cspViolations).toEqual([]);
  });
});
