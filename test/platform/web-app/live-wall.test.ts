// A video wall live in a real browser on a real platform with simulated cameras: every tile on screen
// plays its camera's stream; a tile scrolled out of view (the phone's single column) or every tile of a
// hidden tab stops streaming, and the platform then ends that camera's stream; the wall's controls work
// from the keyboard. Desktop and phone; axe; no sideways overflow; no page errors. Screenshots in
// test-output/web-app/walls/.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Person } from '../../helpers/platform.js';
import { horizontalOverflow, seriousA11yViolations, shot, startWebApp, type ViewportName, type WebApp } from './harness.js';

const LONG = { timeout: 60_000, interval: 250 };

let web: WebApp;
let ada: Person;
let project: { exid: string; name: string };
let cameras: { exid: string; name: string }[];
let wall: { id: string; name: string };
/** Six cameras in three rows: taller than a phone's screen in one column. */
let tallWall: { id: string; name: string };

beforeAll(async () => {
  web = await startWebApp({
    // A stream nobody fetches from stops soon, so "a hidden tile stops streaming" is seen quickly.
    OVERLOOK_HLS_IDLE_SECONDS: '3',
    // One person watches every tile of the wall.
    OVERLOOK_LIVE_STREAMS_PER_PERSON: '8',
  });
  ada = await web.tp.person('ada');
  project = await web.tp.project(ada, 'Harbour Tower');
  cameras = [];
  for (const name of ['North gate', 'Crane', 'Loading bay', 'South fence', 'Site office', 'Car park']) {
    cameras.push(await web.tp.camera(ada, project.exid, name));
  }
  wall = await createWall('Site office wall', 2, cameras.slice(0, 4));
  tallWall = await createWall('Whole site wall', 3, cameras);
});

async function createWall(name: string, rows: number, cams: { exid: string }[]): Promise<{ id: string; name: string }> {
  const res = await web.tp.app.inject({
    method: 'POST',
    url: '/v2/video-walls',
    headers: ada.auth,
    payload: {
      project_exid: project.exid,
      name,
      rows,
      columns: 2,
      tiles: cams.map((c, i) => ({ row: Math.floor(i / 2), column: i % 2, camera_exid: c.exid })),
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}
afterAll(async () => {
  await web?.close();
});

const running = async (exid: string) =>
  (await (await web.tp.app.inject({ method: 'GET', url: `/v2/cameras/${exid}/streaming`, headers: ada.auth })).json()).hls.running as boolean;

/** Per tile: its phase, whether its video has decoded frames and moved on, whether it has a source, and whether it is on screen. */
const tiles = (page: Page) =>
  page.evaluate(`[...document.querySelectorAll('.wall-tile')].map((t) => {
    const v = t.querySelector('video');
    const r = t.getBoundingClientRect();
    return {
      camera: t.dataset.camera,
      phase: t.dataset.phase,
      playing: v.readyState >= 2 && v.currentTime > 0.5,
      source: v.hasAttribute('src'),
      onScreen: r.bottom > 0 && r.top < innerHeight,
    };
  })`) as Promise<{ camera: string; phase: string; playing: boolean; source: boolean; onScreen: boolean }[]>;

/** Every tile on screen plays and every tile off screen has no stream. */
const onScreenPlayOthersStop = async (page: Page) => {
  const all = await tiles(page);
  return all.every((t) => (t.onScreen ? t.phase === 'playing' && t.playing : t.phase === 'paused' && !t.source));
};

/** Presses Tab until the focused element has this text or label. */
async function tabTo(page: Page, label: string): Promise<void> {
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    const here = await page.evaluate(`(() => { const e = document.activeElement; return e?.getAttribute('aria-label') ?? e?.textContent?.trim(); })()`);
    if (here === label) return;
  }
  throw new Error(`${label} was not reached with Tab`);
}

/** Makes the page report itself hidden (or shown again), as switching tabs does. */
const setHidden = (page: Page, hidden: boolean) =>
  page.evaluate(
    `Object.defineProperty(document, 'hidden', { configurable: true, get: () => ${hidden} }); document.dispatchEvent(new Event('visibilitychange'))`,
  );

describe('a video wall live', () => {
  for (const viewport of ['desktop', 'phone'] as ViewportName[]) {
    it(`plays every tile on screen and stops the others (${viewport})`, async () => {
      const shown = viewport === 'desktop' ? wall : tallWall;
      const count = viewport === 'desktop' ? 4 : 6;
      const { page, errors, context } = await web.open(ada, viewport, `#/walls/${shown.id}`);
      await page.waitForSelector(`h1:text("${shown.name}")`);
      expect(await page.title()).toBe(`${shown.name} · Overlook`);
      expect(await page.textContent('.wall-count')).toBe(`${count} cameras`);
      expect(await page.locator('.wall-tile').count()).toBe(count);
      // The header of the app's other screens is not there: the wall has the screen.
      expect(await page.locator('header.top').count()).toBe(0);

      await expect.poll(() => onScreenPlayOthersStop(page), LONG).toBe(true);
      const first = await tiles(page);
      if (viewport === 'desktop') {
        // The whole 2 × 2 grid is on screen, in one screen's height, each camera in its cell.
        expect(first.every((t) => t.onScreen)).toBe(true);
        expect(await page.evaluate('document.documentElement.scrollHeight <= innerHeight')).toBe(true);
        const boxes = (await page.evaluate(
          `[...document.querySelectorAll('.wall-tile')].map((t) => { const r = t.getBoundingClientRect(); return [Math.round(r.left), Math.round(r.top)]; })`,
        )) as [number, number][];
        expect(boxes[0]![1]).toBe(boxes[1]![1]);
        expect(boxes[0]![0]).toBe(boxes[2]![0]);
        expect(boxes[2]![1]).toBeGreaterThan(boxes[0]![1]);
      } else {
        // One column: the last tile is below the fold and does not stream.
        expect(first.at(-1)!.onScreen).toBe(false);
        expect(first[0]!.onScreen).toBe(true);
      }
      expect(errors).toEqual([]);
      expect(await seriousA11yViolations(page)).toEqual([]);
      expect(await horizontalOverflow(page)).toBe(0);
      await shot(page, 'walls', '1-live', viewport);

      if (viewport === 'phone') {
        // Scrolled to the end: the last tile starts, the first (now out of view) stops, and the platform ends its stream.
        await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
        await expect.poll(async () => (await tiles(page))[0]!.onScreen, LONG).toBe(false);
        await expect.poll(() => onScreenPlayOthersStop(page), LONG).toBe(true);
        await expect.poll(() => running(cameras[0]!.exid), LONG).toBe(false);
        expect(await running(cameras[5]!.exid)).toBe(true);
        expect(await horizontalOverflow(page)).toBe(0);
        await shot(page, 'walls', '2-scrolled', viewport);
        await page.evaluate('window.scrollTo(0, 0)');
      }

      // A hidden tab streams nothing; shown again, the tiles on screen play again.
      await setHidden(page, true);
      await expect.poll(async () => (await tiles(page)).every((t) => t.phase === 'paused' && !t.source), LONG).toBe(true);
      await setHidden(page, false);
      await expect.poll(() => onScreenPlayOthersStop(page), LONG).toBe(true);

      // The keyboard reaches the wall's controls and each camera's own live view.
      await page.focus('h1');
      await tabTo(page, 'Full screen');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.evaluate('document.fullscreenElement?.className ?? null')).toBe('wall');
      await expect.poll(() => page.getAttribute('button:text("Full screen")', 'aria-pressed')).toBe('true');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.evaluate('document.fullscreenElement')).toBe(null);
      await tabTo(page, 'Back to the project');
      await tabTo(page, 'North gate');
      await page.keyboard.press('Enter');
      await page.waitForSelector('h1:text("North gate")');
      // Leaving the wall stops every tile.
      expect(await page.locator('.wall-tile').count()).toBe(0);
      expect(errors).toEqual([]);
      // The camera's own live view would keep its stream running for the next test: closed.
      await context.close();
    }, 240_000);
  }

  it('a wall with no cameras says so; an unknown wall says it is not found', async () => {
    const res = await web.tp.app.inject({
      method: 'POST',
      url: '/v2/video-walls',
      headers: ada.auth,
      payload: { project_exid: project.exid, name: 'Empty wall', rows: 1, columns: 1 },
    });
    const { page, errors } = await web.open(ada, 'desktop', `#/walls/${res.json().id}`);
    await page.waitForSelector('.wall-empty');
    expect(await page.textContent('.wall-empty')).toContain('no cameras yet');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.goto(`${web.url}/#/walls/no-such-wall`);
    await page.waitForSelector('[role="alert"]');
    expect(await page.textContent('[role="alert"]')).toMatch(/not found/i);
    expect(errors.filter((e) => !/404/.test(e))).toEqual([]);
  });
});
