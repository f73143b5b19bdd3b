// The recordings screen in a real browser against a real platform: frames stored for a camera in New
// York appear in the calendar (the camera's local days, so a frame at 03:30 UTC is on the day before),
// the picked day's hours and the day timeline, whose gaps show; keyboard only, the arrow keys step frame
// by frame (the image and its time change), +/- zoom down to minutes and space plays the stored frames
// (at 60x, skipping the gaps, on to the next recorded hour); two moments are compared side by side and
// with a slider and saved as a media hub compare, which renders (checked through the API); the site's
// weather shows beside the frames; oldest/latest jump across months; a camera with nothing stored says
// so. At desktop and phone size, with no serious accessibility violation and nothing overflowing
// sideways. Screenshots in test-output/web-app/recordings/.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { snapshotKey } from '../../../src/platform/recordings/snapshot-index.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';
import type { Person } from '../../helpers/platform.js';
import { horizontalOverflow, seriousA11yViolations, shot, startWebApp, type ViewportName, type WebApp } from './harness.js';
import { waitForStatus } from '../media-hub/media-fixtures.js';
import { startFakeOpenMeteo, type FakeWeather } from '../weather/fake-open-meteo.js';

let web: WebApp;
let weather: FakeWeather;
let projectExid: string;
let ada: Person;
let vic: Person;
let cameraExid: string;
let emptyExid: string;

/** A 640×360 JPEG whose colour and a white bar's position follow `i`, so frames differ visibly. */
async function jpeg(i: number): Promise<Buffer> {
  const bar = await sharp({ create: { width: 40, height: 200, channels: 3, background: '#ffffff' } })
    .png()
    .toBuffer();
  return sharp({ create: { width: 640, height: 360, channels: 3, background: { r: (i * 45) % 256, g: 110, b: 200 - ((i * 30) % 200) } } })
    .composite([{ input: bar, left: 40 + i * 60, top: 80 }])
    .jpeg()
    .toBuffer();
}

/** Stores frames as the recorder does: the JPEG in the object store, the row in the snapshot index. */
async function store(exid: string, times: string[]): Promise<void> {
  const { id } = await servicesOf(web.tp.app).cameras.row(exid);
  for (const [i, t] of times.entries()) {
    const at = new Date(t);
    const bytes = await jpeg(i);
    await servicesOf(web.tp.app).storage.put(snapshotKey(id, at), bytes, 'image/jpeg');
    await servicesOf(web.tp.app).snapshotIndex.add({ cameraId: id, takenAt: at, objectKey: snapshotKey(id, at), size: bytes.length, source: 'schedule' });
  }
}

async function newCamera(owner: Person, project: string, name: string, location?: { lat: number; lng: number }): Promise<string> {
  const res = await web.tp.app.inject({
    method: 'POST',
    url: '/v2/cameras',
    headers: owner.auth,
    payload: { name, project_exid: project, simulated: true, timezone: 'America/New_York', ...(location ? { location } : {}) },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().exid;
}

beforeAll(async () => {
  weather = await startFakeOpenMeteo();
  web = await startWebApp({ OVERLOOK_WEATHER_URL: weather.url });
  ada = await web.tp.person('ada');
  projectExid = (await web.tp.project(ada, 'Harbour Tower')).exid;
  // The camera's location gives the project its weather.
  cameraExid = await newCamera(ada, projectExid, 'Crane north', { lat: 40.7, lng: -74.0 });
  emptyExid = await newCamera(ada, projectExid, 'Gate south');
  vic = await web.tp.person('vic');
  await web.tp.addMember(ada, projectExid, vic, 'viewer');
  // New York is UTC−4 in October: the oldest two are 23:30 local on 29 September; on 14 October six
  // frames ten seconds apart from 10:00 local, two at 10:40 (a gap between) and one at 12:00 (an hour
  // without recordings between); and the newest three at 09:30 on 16 October.
  await store(cameraExid, [
    '2026-09-30T03:30:00Z',
    '2026-09-30T03:30:30Z',
    ...Array.from({ length: 6 }, (_, i) => `2026-10-14T14:00:${String(i * 10).padStart(2, '0')}Z`),
    '2026-10-14T14:40:00Z',
    '2026-10-14T14:40:10Z',
    '2026-10-14T16:00:00Z',
    '2026-10-16T13:30:00Z',
    '2026-10-16T13:30:10Z',
    '2026-10-16T13:30:20Z',
  ]);
}, 60_000);
afterAll(async () => {
  await web?.close();
  await weather?.close();
});

const text = (page: Page, selector: string) => page.locator(selector).first().textContent();
const recordedDays = (page: Page) =>
  page
    .locator('button.rec-day')
    .allTextContents()
    .then((t) => t.map((s) => s.trim()));
const pressed = (page: Page, selector: string) =>
  page
    .locator(`${selector}[aria-pressed="true"]`)
    .allTextContents()
    .then((t) => t.map((s) => s.trim()));
const imageSrc = (page: Page) => page.locator('.rec-frame img').getAttribute('src');

/**
 * axe, overflow and a screenshot. axe's probes set inline styles, which the page's CSP refuses and
 * Chromium reports as console errors a moment later; so those reports are left out of `errors` (pageErrors),
 * and instead no element of the app itself may carry a style attribute (the CSP would refuse it).
 */
async function checkPage(page: Page, viewport: ViewportName, name: string): Promise<void> {
  // An empty style attribute is what axe's probes leave behind on elements kept since an earlier run.
  expect(await page.locator('#app [style]:not([style=""])').count()).toBe(0);
  expect(await seriousA11yViolations(page)).toEqual([]);
  expect(await horizontalOverflow(page)).toBe(0);
  await shot(page, 'recordings', name, viewport);
}
const pageErrors = (errors: string[]) => errors.filter((e) => !e.startsWith('Applying inline style violates'));

describe('the recordings screen', () => {
  for (const viewport of ['desktop', 'phone'] as ViewportName[]) {
    it(`shows the calendar, the day timeline and frames, plays and compares with the keyboard (${viewport})`, async () => {
      const { page, errors } = await web.open(ada, viewport, `#/cameras/${cameraExid}/recordings`);
      const count = () => text(page, '.rec-count');
      const press = async (key: string, times = 1) => {
        for (let i = 0; i < times; i++) await page.keyboard.press(key);
      };
      // Opens on the newest frame: October, 16th, 09:00, the last of its three frames.
      await expect.poll(() => text(page, '.rec-time'), { timeout: 20_000 }).toMatch(/09:30:20/);
      expect(await page.title()).toBe('Crane north: recordings · Overlook');
      expect(await text(page, '#rec-month')).toBe('October 2026');
      await expect.poll(() => recordedDays(page)).toEqual(['14', '16']);
      expect(await pressed(page, 'button.rec-day')).toEqual(['16']);
      await expect.poll(() => pressed(page, 'button.rec-hour')).toEqual(['09:00']);
      expect(await count()).toBe('Frame 3 of 3 in 09:00–10:00');
      await expect.poll(() => imageSrc(page)).toMatch(/^blob:/);
      expect(await page.locator('.rec-zone').textContent()).toContain('America/New_York');
      expect(await page.locator('#rec-timeline').getAttribute('aria-valuetext')).toMatch(/09:30:20/);
      expect(await text(page, '.rec-view')).toMatch(/^Showing 24 hours: 00:00 to 23:59/);
      // The site's weather beside the frames: the shown frame's hour, and the day's 24 hours.
      await expect.poll(() => text(page, '.rec-weather-now'), { timeout: 20_000 }).toMatch(/°C/);
      expect(await page.locator('.rec-weather-table tbody tr').count()).toBe(24);
      expect(await page.locator('.rec-weather-table tr[aria-current="time"]').count()).toBe(1);
      await checkPage(page, viewport, '1-latest');

      // Keyboard only: the 14th, then its first recorded hour, then step through the frames.
      await page.locator('button.rec-day', { hasText: '14' }).focus();
      await press('Enter');
      await expect.poll(() => page.locator('button.rec-hour').allTextContents()).toEqual(['10:00', '12:00']);
      expect(await text(page, '#rec-hours-h')).toMatch(/14/);
      await page.locator('button.rec-hour', { hasText: '10:00' }).focus();
      await press('Space');
      await expect.poll(count, { timeout: 20_000 }).toBe('Frame 1 of 8 in 10:00–11:00');
      await expect.poll(() => text(page, '.rec-time')).toMatch(/10:00:00/);
      await expect.poll(() => page.locator('.rec-frame img').getAttribute('alt')).toMatch(/10:00:00/);
      const first = await imageSrc(page);
      // The picked hour's timeline has the focus: the arrow keys step at once.
      expect(await page.evaluate('document.activeElement.id')).toBe('rec-timeline');
      await press('ArrowRight', 2);
      await expect.poll(count).toBe('Frame 3 of 8 in 10:00–11:00');
      expect(await text(page, '.rec-time')).toMatch(/10:00:20/);
      await expect.poll(() => page.locator('.rec-frame img').getAttribute('alt')).toMatch(/10:00:20/);
      const third = await imageSrc(page);
      expect(third).toMatch(/^blob:/);
      expect(third).not.toBe(first);
      expect(await page.locator('#rec-timeline').getAttribute('aria-valuetext')).toMatch(/10:00:20/);
      // The picture on screen is the stored frame itself (decoded by the browser at its real size).
      await expect.poll(() => page.evaluate(`document.querySelector('.rec-frame img').naturalWidth`)).toBe(640);
      await press('ArrowLeft');
      await expect.poll(() => text(page, '.rec-time')).toMatch(/10:00:10/);
      // The gaps show: the loaded hour as its two runs of frames (10:00 and 10:40), 12:00 as an hour.
      expect(await page.locator('#rec-timeline rect.rec-covered').count()).toBe(3);
      // Zoom in to minutes and out again, around the shown frame.
      await press('+', 3);
      await expect.poll(() => text(page, '.rec-view')).toMatch(/^Showing 1 hour: 09:30 to 10:30/);
      await press('+', 3);
      await expect.poll(() => text(page, '.rec-view')).toMatch(/^Showing 2 minutes: 09:59:10 to 10:01:09/);
      await checkPage(page, viewport, '2-zoomed');
      await press('-', 6);
      await expect.poll(() => text(page, '.rec-view')).toMatch(/^Showing 24 hours/);
      // End and Home: the day's last and first frames, across hours.
      await press('End');
      await expect.poll(() => text(page, '.rec-time'), { timeout: 20_000 }).toMatch(/12:00:00/);
      await expect.poll(() => pressed(page, 'button.rec-hour')).toEqual(['12:00']);
      await press('Home');
      await expect.poll(() => text(page, '.rec-time'), { timeout: 20_000 }).toMatch(/10:00:00/);
      // A click on the timeline (the whole day) at 12:14 goes to the nearest frame, 12:00; Home comes back.
      const track = page.locator('#rec-timeline svg');
      const { width, height } = (await track.boundingBox())!;
      await track.click({ position: { x: width * (12.25 / 24), y: height / 2 } });
      await expect.poll(() => text(page, '.rec-time'), { timeout: 20_000 }).toMatch(/12:00:00/);
      await page.locator('#rec-timeline').focus();
      await press('Home');
      await expect.poll(() => text(page, '.rec-time'), { timeout: 20_000 }).toMatch(/10:00:00/);

      // Playback at 60×: through the frames, past the gap and into 12:00, where the day ends.
      await page.locator('.rec-speed select').focus();
      await press('ArrowDown', 2);
      await expect.poll(() => page.locator('.rec-speed select').inputValue()).toBe('60');
      await page.locator('#rec-timeline').focus();
      await press('Space');
      await expect.poll(() => text(page, '#rec-play-status')).toBe('Playing at 60×');
      await expect.poll(() => text(page, '.rec-time'), { timeout: 10_000 }).toMatch(/10:40:10/);
      await expect.poll(() => text(page, '.rec-time'), { timeout: 20_000 }).toMatch(/12:00:00/);
      await expect.poll(() => text(page, '#rec-play-status'), { timeout: 10_000 }).toBe('Playback stopped at the day’s last frame.');

      // Compare: 12:00 as "before" and 10:00 as "after" (the earlier becomes before).
      await page.getByRole('button', { name: 'Compare: use as before' }).focus();
      await press('Enter');
      await expect.poll(() => text(page, '.cmp p')).toMatch(/Pick another frame/);
      await page.locator('#rec-timeline').focus();
      await press('Home');
      await expect.poll(() => text(page, '.rec-time'), { timeout: 20_000 }).toMatch(/10:00:00/);
      await page.getByRole('button', { name: 'Compare: use as after' }).focus();
      await press('Enter');
      await expect.poll(() => page.locator('.cmp-side img').count(), { timeout: 20_000 }).toBe(2);
      expect(await page.locator('.cmp-side figcaption').allTextContents()).toEqual([
        expect.stringMatching(/^Before: .*10:00:00/),
        expect.stringMatching(/^After: .*12:00:00/),
      ]);
      await checkPage(page, viewport, '3-compare');
      await page.getByRole('button', { name: 'Slider' }).focus();
      await press('Enter');
      await page.locator('#cmp-reveal').focus();
      await press('ArrowRight');
      await expect.poll(() => page.locator('.cmp-over').getAttribute('class')).toContain('cmp-at-11');
      expect(await page.locator('#cmp-reveal').getAttribute('aria-valuetext')).toBe('55% of the width shows the after frame');
      await checkPage(page, viewport, '4-compare-slider');
      // Saved as a media hub compare, which renders: checked through the API.
      const title = `Pour ${viewport}`;
      await page.locator('#cmp-title').fill(title);
      await page.locator('#cmp-title').focus();
      await press('Enter');
      await expect.poll(() => text(page, '.cmp-save [role="status"]'), { timeout: 20_000 }).toMatch(`Saved “${title}”`);
      const list = await web.tp.app.inject({ method: 'GET', url: `/v2/projects/${projectExid}/media-hub?type=compare`, headers: ada.auth });
      const item = list.json().data.find((i: { title: string }) => i.title === title);
      expect(item).toMatchObject({ camera_exid: cameraExid, from_date: '2026-10-14T14:00:00.000Z', to_date: '2026-10-14T16:00:00.000Z' });
      const done = await waitForStatus(web.tp, ada.auth, `/v2/projects/${projectExid}/media-hub/${item.id}`, ['completed'], 60_000);
      expect(done.status, done.error).toBe('completed');
      expect(done.options).toMatchObject({ before_frame: '2026-10-14T14:00:00.000Z', after_frame: '2026-10-14T16:00:00.000Z' });

      // Oldest: 23:30 on 29 September in New York, although it is 30 September in UTC.
      await page.getByRole('button', { name: 'Oldest frame' }).click();
      await expect.poll(() => text(page, '#rec-month')).toBe('September 2026');
      await expect.poll(() => recordedDays(page)).toEqual(['29']);
      await expect.poll(() => pressed(page, 'button.rec-hour')).toEqual(['23:00']);
      await expect.poll(() => text(page, '.rec-time')).toMatch(/23:30:00/);
      expect(await count()).toBe('Frame 1 of 2 in 23:00–00:00');
      await page.getByRole('button', { name: 'Next month' }).click();
      await expect.poll(() => text(page, '#rec-month')).toBe('October 2026');
      await expect.poll(() => recordedDays(page)).toEqual(['14', '16']);
      await page.getByRole('button', { name: 'Next month' }).click();
      await expect.poll(() => text(page, '#rec-days-note')).toMatch(/No recordings in November 2026/);
      await checkPage(page, viewport, '5-empty-month');
      await page.getByRole('button', { name: 'Latest frame' }).click();
      await expect.poll(() => text(page, '.rec-time')).toMatch(/09:30:20/);
      expect(pageErrors(errors)).toEqual([]);
    });

    it(`lets a viewer compare two moments but not save them (${viewport})`, async () => {
      const { page, errors } = await web.open(vic, viewport, `#/cameras/${cameraExid}/recordings`);
      await expect.poll(() => text(page, '.rec-time'), { timeout: 20_000 }).toMatch(/09:30:20/);
      await page.getByRole('button', { name: 'Compare: use as after' }).click();
      await page.locator('#rec-timeline').focus();
      await page.keyboard.press('Home');
      await expect.poll(() => text(page, '.rec-time')).toMatch(/09:30:00/);
      await page.getByRole('button', { name: 'Compare: use as before' }).click();
      await expect.poll(() => page.locator('.cmp-side img').count(), { timeout: 20_000 }).toBe(2);
      expect(await page.locator('#cmp-title').count()).toBe(0);
      await page.getByRole('button', { name: 'Clear the compare' }).click();
      await expect.poll(() => page.locator('.cmp').count()).toBe(0);
      expect(pageErrors(errors)).toEqual([]);
    });

    it(`says plainly when a camera has no recordings (${viewport})`, async () => {
      const { page, errors } = await web.open(ada, viewport, `#/cameras/${emptyExid}/recordings`);
      await expect.poll(() => text(page, '.rec-empty h2'), { timeout: 20_000 }).toBe('No recordings yet');
      expect(await page.locator('nav.tabs a[aria-current="page"]').textContent()).toBe('Recordings');
      await checkPage(page, viewport, '6-no-recordings');
      expect(pageErrors(errors)).toEqual([]);
    });
  }
});
