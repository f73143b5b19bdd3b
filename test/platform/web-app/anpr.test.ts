// The number-plate (ANPR) screen in a real browser, at desktop and phone size: reads pushed through
// the API with an ingestion token show, paged, with their plate image; the plate, date and direction
// filters narrow them (a wrong filter is said next to its field); an admin adds a plate to the watch
// list and removes it after a confirm dialog, and the reads of it are marked; a viewer sees the list
// read-only; a camera with no reads says so. The plate filter is used with the keyboard alone. Every
// state is checked with axe-core, for sideways overflow and page errors, and screenshotted to
// test-output/web-app/anpr/.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Person } from '../../helpers/platform.js';
import { ingest, ingestionToken, jpeg } from '../anpr/anpr-helpers.js';
import { horizontalOverflow, seriousA11yViolations, shot, startWebApp, type ViewportName, type WebApp } from './harness.js';

let web: WebApp;
let ada: Person;
let vic: Person;
let project: { exid: string };
let gate: { exid: string };
let quiet: { exid: string };

beforeAll(async () => {
  web = await startWebApp();
  [ada, vic] = [await web.tp.person('ada'), await web.tp.person('vic')];
  project = await web.tp.project(ada, 'Harbour Tower');
  gate = await web.tp.camera(ada, project.exid, 'North gate');
  quiet = await web.tp.camera(ada, project.exid, 'Back yard');
  await web.tp.addMember(ada, project.exid, vic, 'viewer');
  const { token } = await ingestionToken(web.tp, ada, gate.exid);
  const image = (await jpeg()).toString('base64');
  await ingest(web.tp, gate.exid, token, {
    plate_number: 'AB12 CDE',
    captured_at: '2026-11-20T08:00:00Z',
    direction: 'in',
    confidence: 0.93,
    plate_image: image,
  });
  await ingest(web.tp, gate.exid, token, { plate_number: 'AB12-XYZ', captured_at: '2026-11-21T09:00:00Z', direction: 'out', confidence: 0.8 });
  await ingest(web.tp, gate.exid, token, { plate_number: 'ZZ99 ZZZ', captured_at: '2026-11-22T10:00:00Z', direction: 'in' });
  for (let i = 1; i <= 27; i++) {
    await ingest(web.tp, gate.exid, token, { plate_number: `FL${String(i).padStart(4, '0')}`, captured_at: `2026-10-${String(i).padStart(2, '0')}T12:00:00Z` });
  }
}, 90_000);
afterAll(async () => {
  await web?.close();
});

const path = (camera = gate.exid) => `#/cameras/${camera}/anpr`;
const rows = (page: Page) => page.locator('.anpr-table tbody tr');
const plates = (page: Page) => page.locator('.anpr-table tbody tr').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-plate')));
const watchlist = async () =>
  (await web.tp.app.inject({ method: 'GET', url: `/v2/projects/${project.exid}/anpr/watchlist`, headers: ada.auth })).json() as {
    plate: string;
    label: string;
  }[];

/** No page error so far, no serious accessibility violation, nothing overflowing sideways; a screenshot. */
async function checkPage(page: Page, errors: string[], name: string, viewport: ViewportName) {
  expect(errors).toEqual([]);
  expect(await seriousA11yViolations(page)).toEqual([]);
  expect(await horizontalOverflow(page)).toBe(0);
  await shot(page, 'anpr', name, viewport);
  // axe-core's probes and the screenshot's caret-hiding set inline styles, which the app's content
  // security policy refuses and reports as console errors: those are the tools', not the app's.
  errors.splice(0);
}

async function filter(page: Page, fields: { plate?: string; from?: string; to?: string; direction?: string }) {
  await page.fill('#anpr-plate', fields.plate ?? '');
  await page.fill('#anpr-from', fields.from ?? '');
  await page.fill('#anpr-to', fields.to ?? '');
  await page.selectOption('#anpr-direction', fields.direction ?? '');
  await page.click('.anpr-filter button[type=submit]');
}

describe('the number-plate screen', () => {
  for (const viewport of ['desktop', 'phone'] as ViewportName[]) {
    it(`lists, pages and filters the reads; an admin keeps the watch list (${viewport})`, async () => {
      const { page, errors } = await web.open(ada, viewport, path());
      await expect.poll(() => rows(page).count()).toBe(25);
      expect(await page.title()).toBe('Number plates · North gate · Overlook');
      expect(await page.getAttribute('.tabs a[aria-current=page]', 'href')).toBe(path());
      expect(await page.textContent('.list-pager')).toContain('Page 1 of 2 · 30 reads');
      // Newest first, with the image the camera sent.
      expect((await plates(page)).slice(0, 3)).toEqual(['ZZ99ZZZ', 'AB12XYZ', 'AB12CDE']);
      const first = page.locator('tr[data-plate=AB12CDE]');
      expect(await first.textContent()).toContain('93%');
      expect(await first.textContent()).toContain('read as “AB12 CDE”');
      await expect.poll(() => first.locator('img.anpr-image').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(120);
      await checkPage(page, errors, '1-reads', viewport);

      await page.getByRole('button', { name: 'Next page' }).click();
      await expect.poll(() => rows(page).count()).toBe(5);
      expect(await page.textContent('.list-pager')).toContain('Page 2 of 2');

      // The plate filter: a prefix, then an exact plate whatever its spacing and case.
      await filter(page, { plate: 'AB12*' });
      await expect.poll(() => plates(page)).toEqual(['AB12XYZ', 'AB12CDE']);
      await filter(page, { plate: 'ab12-cde' });
      await expect.poll(() => plates(page)).toEqual(['AB12CDE']);
      // Dates and direction.
      await filter(page, { from: '2026-11-21', to: '2026-11-22' });
      await expect.poll(() => plates(page)).toEqual(['ZZ99ZZZ', 'AB12XYZ']);
      await filter(page, { from: '2026-11-01', direction: 'out' });
      await expect.poll(() => plates(page)).toEqual(['AB12XYZ']);
      await filter(page, { plate: 'NOPE1' });
      await expect.poll(() => page.textContent('.anpr-empty')).toContain('No read matches these filters');
      await checkPage(page, errors, '2-no-match', viewport);
      // Filters that cannot work are said next to their field and not sent.
      await filter(page, { plate: '!!', from: '2026-11-22', to: '2026-11-21' });
      await expect.poll(() => page.textContent('#anpr-plate-error')).toContain('letters and digits');
      expect(await page.textContent('#anpr-to-error')).toContain('before the start date');
      expect(await page.getAttribute('#anpr-plate', 'aria-invalid')).toBe('true');
      await checkPage(page, errors, '3-bad-filter', viewport);
      await page.getByRole('button', { name: 'Clear filters' }).click();
      await expect.poll(() => rows(page).count()).toBe(25);

      // The watch list: refused when empty, then added, marked on the reads, kept by the API.
      const plate = viewport === 'desktop' ? 'ZZ99 ZZZ' : 'AB12 XYZ';
      const normal = plate.replace(' ', '');
      await page.click('.anpr-watch-add button[type=submit]');
      await expect.poll(() => page.textContent('#watch-plate-error')).toContain('Type the plate');
      await page.fill('#watch-plate', plate);
      await page.fill('#watch-label', 'Stolen plant trailer');
      await page.click('.anpr-watch-add button[type=submit]');
      await page.locator(`.anpr-watch-item[data-plate=${normal}]`).waitFor();
      expect((await watchlist()).map((w) => w.plate)).toContain(normal);
      await expect.poll(() => page.locator(`tr[data-plate=${normal}] .anpr-watched`).textContent()).toContain('Stolen plant trailer');
      // Twice is refused by the API, and said.
      await page.fill('#watch-plate', plate);
      await page.fill('#watch-label', 'again');
      await page.click('.anpr-watch-add button[type=submit]');
      await expect.poll(() => page.textContent('.anpr-watch-add .error')).toContain('already');
      // The browser logs the refused request itself; nothing else went wrong.
      expect(errors.splice(0)).toEqual([expect.stringContaining('409 (Conflict)')]);
      await checkPage(page, errors, '4-watch-list', viewport);

      await page.getByRole('button', { name: `Stop watching for ${normal}` }).click();
      const dialog = page.locator('dialog.confirm-dialog[open]');
      await dialog.waitFor();
      expect(await dialog.textContent()).toContain('Its reads stay');
      await dialog.getByRole('button', { name: 'Stop watching' }).click();
      await expect.poll(() => page.locator(`.anpr-watch-item[data-plate=${normal}]`).count()).toBe(0);
      expect((await watchlist()).map((w) => w.plate)).not.toContain(normal);
      expect(errors).toEqual([]);
    });

    it(`shows a camera with no reads, and a viewer the watch list read-only (${viewport})`, async () => {
      const empty = await web.open(ada, viewport, path(quiet.exid));
      await expect.poll(() => empty.page.textContent('.anpr-empty')).toContain('has not read any number plate yet');
      await checkPage(empty.page, empty.errors, '5-empty', viewport);
      await empty.context.close();

      const asVic = await web.open(vic, viewport, path());
      await expect.poll(() => rows(asVic.page).count()).toBe(25);
      await asVic.page.locator('.anpr-watchlist').waitFor();
      expect(await asVic.page.locator('.anpr-watch-add, .anpr-watch-item button').count()).toBe(0);
      expect(await asVic.page.textContent('.anpr-watchlist')).toContain('Admins and the project’s owner add and remove plates');
      await checkPage(asVic.page, asVic.errors, '6-viewer', viewport);
      await asVic.context.close();
    });
  }

  it('filters by plate with the keyboard alone', async () => {
    const { page, errors } = await web.open(ada, 'desktop', path());
    await expect.poll(() => rows(page).count()).toBe(25);
    await page.focus('#anpr-plate');
    await page.keyboard.type('zz99zzz');
    await page.keyboard.press('Enter');
    await expect.poll(() => plates(page)).toEqual(['ZZ99ZZZ']);
    expect(errors).toEqual([]);
  });
});
