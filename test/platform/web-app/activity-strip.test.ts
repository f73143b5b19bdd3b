// The recordings screen's activity strip in a real browser against a real platform: a day of frames,
// analysed by the picture checks as stored frames are, with two busy spells. The strip shades the
// quarter hours, the busiest are offered as buttons that jump to their busiest frame, and a click on the
// strip jumps to the quarter under the pointer. At desktop and phone size, with no serious accessibility
// violation, no inline style and nothing overflowing sideways. Screenshots in test-output/web-app/recordings/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { snapshotKey } from '../../../src/platform/recordings/snapshot-index.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';
import type { Person } from '../../helpers/platform.js';
import { frame, type FrameOptions } from '../picture-checks/synthetic-frames.js';
import { horizontalOverflow, seriousA11yViolations, shot, startWebApp, type ViewportName, type WebApp } from './harness.js';

let web: WebApp;
let ada: Person;
let cameraExid: string;
/** The busiest frame of the 10:15 quarter, as the API says. */
let peak1015: string;

const DAY = '2026-10-14';
const at = (hhmm: string) => `${DAY}T${hhmm}:00.000Z`;

beforeAll(async () => {
  web = await startWebApp();
  ada = await web.tp.person('ada');
  const project = (await web.tp.project(ada, 'Harbour Tower')).exid;
  const res = await web.tp.app.inject({
    method: 'POST',
    url: '/v2/cameras',
    headers: ada.auth,
    payload: { name: 'Crane north', project_exid: project, simulated: true, timezone: 'UTC' },
  });
  cameraExid = res.json().exid;
  const s = servicesOf(web.tp.app);
  const { id } = await s.cameras.row(cameraExid);
  // Quiet at 08:00, busy at 10:15 and 12:00, quiet again at 14:00.
  const frames: [string, FrameOptions][] = [
    ...['08:00', '08:05', '08:10', '08:15', '08:20'].map((t, n): [string, FrameOptions] => [t, { n, people: 2, seed: 1 }]),
    ...['10:15', '10:20', '10:25'].map((t, n): [string, FrameOptions] => [t, { n, people: 12, seed: 10 + n }]),
    ...['12:00', '12:05', '12:10'].map((t, n): [string, FrameOptions] => [t, { n, people: 6, seed: 20 + n }]),
    ...['14:00', '14:05', '14:10'].map((t, n): [string, FrameOptions] => [t, { n, people: 2, seed: 1 }]),
  ];
  // Stored as the recordings' writer stores a frame, and handed to the picture checks as it does.
  for (const [t, o] of frames) {
    const takenAt = new Date(at(t));
    const jpeg = await frame(o);
    const objectKey = snapshotKey(id, takenAt);
    await s.storage.put(objectKey, jpeg, 'image/jpeg');
    await s.snapshotIndex.add({ cameraId: id, takenAt, objectKey, size: jpeg.length, source: 'schedule' });
    s.storedFrames.stored({ cameraId: id, takenAt, objectKey, jpeg });
  }
  await s.pictureChecks.idle();
  const activity = await web.tp.app.inject({ method: 'GET', url: `/v2/cameras/${cameraExid}/activity?date=${DAY}`, headers: ada.auth });
  peak1015 = activity.json().quarters.find((q: { start: string }) => q.start === at('10:15')).peak_at;
}, 60_000);
afterAll(async () => {
  await web?.close();
});

const text = (page: Page, selector: string) => page.locator(selector).first().textContent();
const pressedHour = (page: Page) =>
  page
    .locator('button.rec-hour[aria-pressed="true"]')
    .allTextContents()
    .then((t) => t.map((s) => s.trim()));
const busiest = (page: Page) =>
  page
    .locator('.rec-busiest button')
    .allTextContents()
    .then((t) => t.map((s) => s.trim()));

async function checkPage(page: Page, viewport: ViewportName, name: string): Promise<void> {
  expect(await page.locator('#app [style]').count()).toBe(0);
  expect(await seriousA11yViolations(page)).toEqual([]);
  expect(await horizontalOverflow(page)).toBe(0);
  await shot(page, 'recordings', name, viewport);
}
const pageErrors = (errors: string[]) => errors.filter((e) => !e.startsWith('Applying inline style violates'));

describe('the activity strip', () => {
  for (const viewport of ['desktop', 'phone'] as ViewportName[]) {
    it(`shades the day and jumps to a busy moment (${viewport})`, async () => {
      const { page, errors } = await web.open(ada, viewport, `#/cameras/${cameraExid}/recordings`);
      // Opens on the newest frame (14:10), so the day's strip is shown.
      await expect.poll(() => text(page, '.rec-time'), { timeout: 20_000 }).toMatch(/14:10:00/);
      await expect.poll(() => busiest(page), { timeout: 20_000 }).toEqual(expect.arrayContaining(['10:15', '12:00']));
      expect((await busiest(page)).slice(0, 2)).toEqual(['10:15', '12:00']);
      expect(await page.locator('.rec-strip .rec-slot').count()).toBe(96);
      // The busiest quarter is the darkest; the quiet morning is pale.
      expect(await page.locator(`.rec-strip [data-start="${at('10:15')}"]`).getAttribute('class')).toContain('rec-l8');
      expect(await page.locator(`.rec-strip [data-start="${at('08:15')}"]`).getAttribute('class')).toMatch(/rec-l[01]\b/);
      expect(await page.locator('.rec-strip').getAttribute('aria-label')).toMatch(/busiest 10:15, 12:00/);
      await checkPage(page, viewport, '5-activity');

      // The busiest quarter's button: its hour opens on its busiest frame.
      await page.locator('.rec-busiest button', { hasText: '10:15' }).click();
      await expect.poll(() => pressedHour(page)).toEqual(['10:00']);
      await expect.poll(() => text(page, '.rec-time')).toContain(peak1015.slice(11, 19));

      // A click on the strip over 12:00–12:15 goes to that quarter.
      const box = (await page.locator('.rec-strip').boundingBox())!;
      await page.mouse.click(box.x + (48.5 / 96) * box.width, box.y + box.height / 2);
      await expect.poll(() => pressedHour(page)).toEqual(['12:00']);
      await expect.poll(() => text(page, '.rec-time')).toMatch(/12:(00|05|10):00/);
      expect(pageErrors(errors)).toEqual([]);
    });
  }
});
