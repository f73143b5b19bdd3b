// The recordings screen in a real browser against a real platform: frames stored for a camera in New
// York appear in the calendar (the camera's local days, so a frame at 03:30 UTC is on the day before),
// the picked day's hours and the hour's scrubber; the arrow keys step frame by frame (the image and
// its time change); oldest/latest jump across months; a camera with nothing stored says so. At desktop
// and phone size, with no serious accessibility violation and nothing overflowing sideways.
// Screenshots in test-output/web-app/recordings/.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { snapshotKey } from '../../../src/platform/recordings/snapshot-index.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';
import type { Person } from '../../helpers/platform.js';
import { horizontalOverflow, seriousA11yViolations, shot, startWebApp, type ViewportName, type WebApp } from './harness.js';

let web: WebApp;
let ada: Person;
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

async function newCamera(owner: Person, project: string, name: string): Promise<string> {
  const res = await web.tp.app.inject({
    method: 'POST',
    url: '/v2/cameras',
    headers: owner.auth,
    payload: { name, project_exid: project, simulated: true, timezone: 'America/New_York' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().exid;
}

beforeAll(async () => {
  web = await startWebApp();
  ada = await web.tp.person('ada');
  const project = (await web.tp.project(ada, 'Harbour Tower')).exid;
  cameraExid = await newCamera(ada, project, 'Crane north');
  emptyExid = await newCamera(ada, project, 'Gate south');
  // New York is UTC−4 in October: the oldest two are 23:30 local on 29 September, then six frames
  // ten seconds apart from 10:00 local on 14 October, and the newest three at 09:30 on 16 October.
  await store(cameraExid, [
    '2026-09-30T03:30:00Z',
    '2026-09-30T03:30:30Z',
    ...Array.from({ length: 6 }, (_, i) => `2026-10-14T14:00:${String(i * 10).padStart(2, '0')}Z`),
    '2026-10-16T13:30:00Z',
    '2026-10-16T13:30:10Z',
    '2026-10-16T13:30:20Z',
  ]);
}, 60_000);
afterAll(async () => {
  await web?.close();
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
  expect(await page.locator('#app [style]').count()).toBe(0);
  expect(await seriousA11yViolations(page)).toEqual([]);
  expect(await horizontalOverflow(page)).toBe(0);
  await shot(page, 'recordings', name, viewport);
}
const pageErrors = (errors: string[]) => errors.filter((e) => !e.startsWith('Applying inline style violates'));

describe('the recordings screen', () => {
  for (const viewport of ['desktop', 'phone'] as ViewportName[]) {
    it(`shows the calendar, hours and frames and scrubs with the keyboard (${viewport})`, async () => {
      const { page, errors } = await web.open(ada, viewport, `#/cameras/${cameraExid}/recordings`);
      // Opens on the newest frame: October, 16th, 09:00, the last of its three frames.
      await expect.poll(() => text(page, '.rec-time'), { timeout: 20_000 }).toMatch(/09:30:20/);
      expect(await page.title()).toBe('Crane north: recordings · Overlook');
      expect(await text(page, '#rec-month')).toBe('October 2026');
      await expect.poll(() => recordedDays(page)).toEqual(['14', '16']);
      expect(await pressed(page, 'button.rec-day')).toEqual(['16']);
      await expect.poll(() => pressed(page, 'button.rec-hour')).toEqual(['09:00']);
      expect(await text(page, 'label[for="rec-scrubber"]')).toBe('Frame 3 of 3');
      await expect.poll(() => imageSrc(page)).toMatch(/^blob:/);
      expect(await page.locator('.rec-zone').textContent()).toContain('America/New_York');
      await checkPage(page, viewport, '1-latest');

      // Keyboard only: the 14th, then its one recorded hour, then step through the frames.
      await page.locator('button.rec-day', { hasText: '14' }).focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => page.locator('button.rec-hour').allTextContents()).toEqual(['10:00']);
      expect(await text(page, '#rec-hours-h')).toMatch(/14/);
      await page.locator('button.rec-hour').focus();
      await page.keyboard.press('Space');
      await expect.poll(() => text(page, 'label[for="rec-scrubber"]'), { timeout: 20_000 }).toBe('Frame 1 of 6');
      await expect.poll(() => text(page, '.rec-time')).toMatch(/10:00:00/);
      await expect.poll(() => page.locator('.rec-frame img').getAttribute('alt')).toMatch(/10:00:00/);
      const first = await imageSrc(page);
      // The picked hour's slider has the focus: the arrow keys step at once.
      expect(await page.evaluate('document.activeElement.id')).toBe('rec-scrubber');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => text(page, 'label[for="rec-scrubber"]')).toBe('Frame 3 of 6');
      expect(await text(page, '.rec-time')).toMatch(/10:00:20/);
      await expect.poll(() => page.locator('.rec-frame img').getAttribute('alt')).toMatch(/10:00:20/);
      const third = await imageSrc(page);
      expect(third).toMatch(/^blob:/);
      expect(third).not.toBe(first);
      expect(await page.locator('#rec-scrubber').getAttribute('aria-valuetext')).toMatch(/10:00:20/);
      // The picture on screen is the stored frame itself (decoded by the browser at its real size).
      expect(await page.evaluate(`document.querySelector('.rec-frame img').naturalWidth`)).toBe(640);
      await page.keyboard.press('ArrowLeft');
      await expect.poll(() => text(page, '.rec-time')).toMatch(/10:00:10/);
      await page.keyboard.press('End');
      await expect.poll(() => text(page, '.rec-time')).toMatch(/10:00:50/);
      await checkPage(page, viewport, '2-scrubbed');

      // Oldest: 23:30 on 29 September in New York, although it is 30 September in UTC.
      await page.getByRole('button', { name: 'Oldest frame' }).click();
      await expect.poll(() => text(page, '#rec-month')).toBe('September 2026');
      await expect.poll(() => recordedDays(page)).toEqual(['29']);
      await expect.poll(() => pressed(page, 'button.rec-hour')).toEqual(['23:00']);
      await expect.poll(() => text(page, '.rec-time')).toMatch(/23:30:00/);
      expect(await text(page, 'label[for="rec-scrubber"]')).toBe('Frame 1 of 2');
      await page.getByRole('button', { name: 'Next month' }).click();
      await expect.poll(() => text(page, '#rec-month')).toBe('October 2026');
      await expect.poll(() => recordedDays(page)).toEqual(['14', '16']);
      await page.getByRole('button', { name: 'Next month' }).click();
      await expect.poll(() => text(page, '#rec-days-note')).toMatch(/No recordings in November 2026/);
      await checkPage(page, viewport, '3-empty-month');
      await page.getByRole('button', { name: 'Latest frame' }).click();
      await expect.poll(() => text(page, '.rec-time')).toMatch(/09:30:20/);
      expect(pageErrors(errors)).toEqual([]);
    });

    it(`says plainly when a camera has no recordings (${viewport})`, async () => {
      const { page, errors } = await web.open(ada, viewport, `#/cameras/${emptyExid}/recordings`);
      await expect.poll(() => text(page, '.rec-empty h2'), { timeout: 20_000 }).toBe('No recordings yet');
      expect(await page.locator('nav.tabs a[aria-current="page"]').textContent()).toBe('Recordings');
      await checkPage(page, viewport, '4-no-recordings');
      expect(pageErrors(errors)).toEqual([]);
    });
  }
});
