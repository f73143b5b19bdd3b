// A camera's live view in a real browser on a real platform with a simulated camera: the HLS stream
// plays in the <video> (hls.js over media tokens, renewed before they expire), the PTZ pad and presets
// move the simulated head (checked through the API), the pad works with the keyboard alone, and leaving
// the screen ends the stream's fetches. Desktop and phone; axe; no sideways overflow; no page errors.
// What the screen shows when there is no stream: camera-live-states.test.ts. Screenshots in
// test-output/web-app/cameras/.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Person } from '../../helpers/platform.js';
import { horizontalOverflow, seriousA11yViolations, shot, startWebApp, type ViewportName, type WebApp } from './harness.js';

const LONG = { timeout: 45_000, interval: 250 };

let web: WebApp;
let ada: Person;
let project: { exid: string; name: string };
let gate: { exid: string };

beforeAll(async () => {
  web = await startWebApp({
    // An unwatched stream stops soon, so "leaving stops the fetches" is seen quickly.
    OVERLOOK_HLS_IDLE_SECONDS: '3',
    // Playlist URLs expire within the first test: the player must renew its token to keep playing.
    OVERLOOK_MEDIA_TOKEN_SECONDS: '8',
  });
  ada = await web.tp.person('ada');
  project = await web.tp.project(ada, 'Harbour Tower');
  gate = await web.tp.camera(ada, project.exid, 'Gate camera');
});
afterAll(async () => {
  await web?.close();
});

const apiGet = async (path: string) => (await web.tp.app.inject({ method: 'GET', url: path, headers: ada.auth })).json();
const ptz = (cam: { exid: string }) => apiGet(`/v2/cameras/${cam.exid}/ptz/status`);
const presets = async (cam: { exid: string }) =>
  (await apiGet(`/v2/cameras/${cam.exid}/ptz/presets`)).presets as { token: string; name: string; position: unknown }[];
const running = async (cam: { exid: string }) => (await apiGet(`/v2/cameras/${cam.exid}/streaming`)).hls.running as boolean;

/** Whether the live <video> has decoded frames and its clock has moved past `after` seconds. */
const playedPast = (page: Page, after: number) =>
  page.evaluate(`(() => { const v = document.querySelector('video.live-video'); return !!v && v.readyState >= 2 && v.currentTime > ${after}; })()`);
const videoTime = (page: Page) => page.evaluate(`document.querySelector('video.live-video').currentTime`) as Promise<number>;

/** Presses Tab until the focused element has this accessible label (proves it is reachable by keyboard). */
async function tabTo(page: Page, label: string): Promise<void> {
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab');
    const here = await page.evaluate(
      `(() => { const e = document.activeElement; return e?.getAttribute('aria-label') ?? e?.labels?.[0]?.textContent.trim() ?? e?.textContent?.trim(); })()`,
    );
    if (here === label) return;
  }
  throw new Error(`${label} was not reached with Tab`);
}

/**
 * The page's errors but those a test provokes on purpose (the browser logs refused answers), and the
 * policy reports of axe-core's own inline styles (each test checks `errors` before its first axe run).
 */
const unexpected = (errors: string[], ...expected: RegExp[]) => errors.filter((e) => ![/^Applying inline style violates/, ...expected].some((x) => x.test(e)));

describe('a camera’s live view', () => {
  for (const viewport of ['desktop', 'phone'] as ViewportName[]) {
    const keyboard = viewport === 'phone';
    it(`plays the live stream and moves the camera with its pad and presets (${viewport}${keyboard ? ', keyboard only' : ''})`, async () => {
      await web.tp.app.inject({ method: 'POST', url: `/v2/cameras/${gate.exid}/ptz/home`, headers: ada.auth });
      const { page, errors } = await web.open(ada, viewport, `#/cameras/${gate.exid}`);
      const playlistTokens = new Set<string>();
      page.on('request', (r) => {
        const u = new URL(r.url());
        if (u.pathname.endsWith('/hls/live.m3u8')) playlistTokens.add(u.searchParams.get('token') ?? '');
      });
      await page.waitForSelector('h1:text("Gate camera")');
      expect(await page.title()).toBe('Gate camera · Overlook');
      expect(await page.getAttribute('a.back-link', 'href')).toBe(`#/projects/${project.exid}`);
      expect(await page.textContent('.tabs a[aria-current="page"]')).toBe('Live');

      // The video plays: frames decoded and its clock moving.
      await expect.poll(() => playedPast(page, 0), LONG).toBe(true);
      const t = await videoTime(page);
      await expect.poll(() => playedPast(page, t), LONG).toBe(true);
      await page.waitForSelector('.live-badge');

      // The pad moves the simulated head: the platform reports the new position.
      await page.waitForSelector('.ptz-status:text("Now:")');
      if (keyboard) {
        await tabTo(page, 'Pan right');
        await page.keyboard.press('Enter');
        await expect.poll(async () => (await ptz(gate)).pan, LONG).toBeGreaterThan(0);
        await page.keyboard.press('ArrowUp');
        await expect.poll(async () => (await ptz(gate)).tilt, LONG).toBeGreaterThan(0);
        await tabTo(page, 'Zoom in');
        await page.keyboard.press('Space');
        await expect.poll(async () => (await ptz(gate)).zoom, LONG).toBeGreaterThan(0);
      } else {
        await page.click('button[aria-label="Pan right"]');
        await expect.poll(async () => (await ptz(gate)).pan, LONG).toBeGreaterThan(0);
        await page.click('button[aria-label="Tilt up"]');
        await expect.poll(async () => (await ptz(gate)).tilt, LONG).toBeGreaterThan(0);
        await page.click('button[aria-label="Zoom in"]');
        await expect.poll(async () => (await ptz(gate)).zoom, LONG).toBeGreaterThan(0);
      }
      await page.waitForSelector('.ptz-status:text("Zoomed in")');
      const saved = await ptz(gate);

      // A preset of where it points now.
      const name = `Loading bay ${viewport}`;
      if (keyboard) {
        await tabTo(page, 'Save where the camera points now as a preset');
        await page.keyboard.type(name);
        await page.keyboard.press('Enter');
      } else {
        await page.fill('#ptz-preset-name', name);
        await page.click('button:text("Save preset")');
      }
      await page.waitForSelector(`.ptz-presets li:has-text("${name}")`);
      const preset = (await presets(gate)).find((p) => p.name === name)!;
      expect(preset.position).toEqual({ pan: saved.pan, tilt: saved.tilt, zoom: saved.zoom });
      expect(errors).toEqual([]);
      expect(await seriousA11yViolations(page)).toEqual([]);
      expect(await horizontalOverflow(page)).toBe(0);
      await shot(page, 'cameras', '2-live', viewport);

      // Home, then back to the preset.
      if (keyboard) {
        await tabTo(page, 'Home');
        await page.keyboard.press('Enter');
      } else await page.click('button:text("Home")');
      await expect.poll(async () => [(await ptz(gate)).pan, (await ptz(gate)).tilt], LONG).toEqual([0, 0]);
      if (keyboard) {
        await tabTo(page, `Go to preset ${name}`);
        await page.keyboard.press('Enter');
      } else await page.click(`button[aria-label="Go to preset ${name}"]`);
      await expect.poll(async () => (await ptz(gate)).pan, LONG).toBe(saved.pan);
      expect(await ptz(gate)).toMatchObject({ pan: saved.pan, tilt: saved.tilt, zoom: saved.zoom, moving: false });

      // Removing asks first, saying what it does; "Keep it" (focused first) keeps it.
      if (keyboard) {
        await tabTo(page, `Remove preset ${name}`);
        await page.keyboard.press('Enter');
      } else await page.click(`button[aria-label="Remove preset ${name}"]`);
      await page.waitForSelector('dialog[open]');
      expect(await page.textContent('dialog[open]')).toContain('The camera forgets this saved position');
      expect(await page.evaluate('document.activeElement.textContent.trim()')).toBe('Keep it');
      expect(await seriousA11yViolations(page)).toEqual([]);
      await shot(page, 'cameras', '3-remove-preset', viewport);
      if (keyboard) {
        await page.keyboard.press('Tab');
        await page.keyboard.press('Enter');
      } else await page.click('dialog[open] button:text("Remove preset")');
      await page.waitForSelector(`.ptz-presets li:has-text("${name}")`, { state: 'detached' });
      expect((await presets(gate)).map((p) => p.name)).not.toContain(name);

      if (!keyboard) {
        // The playlist URL's token lasts 8 s here: the player renewed it and still plays.
        await expect.poll(() => playlistTokens.size, LONG).toBeGreaterThan(1);
        const renewed = await videoTime(page);
        await expect.poll(() => playedPast(page, renewed + 4), LONG).toBe(true);
        expect(await page.locator('.live-error').count()).toBe(0);
      }

      // Leaving for the project's grid ends this page's stream fetches.
      if (keyboard) {
        await tabTo(page, `All cameras of ${project.name}`);
        await page.keyboard.press('Enter');
      } else await page.click('a.back-link');
      await page.waitForSelector('h1:text("Harbour Tower")');
      expect(await page.locator('video').count()).toBe(0);
      expect(unexpected(errors)).toEqual([]);
    });
  }

  it('once nobody watches, the stream’s fetches stop and the platform ends it', async () => {
    // Both pages above left the camera; an idle stream ends OVERLOOK_HLS_IDLE_SECONDS after its last fetch.
    await expect.poll(() => running(gate), { timeout: 45_000, interval: 500 }).toBe(false);
  });
});
