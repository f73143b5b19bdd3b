// The media hub screen in a real browser against a real platform with its render jobs on: a clip made
// through the form (keyboard only) renders with real ffmpeg while the status line follows it, and the
// download is a real H.264 MP4 (ffprobe) and the card gives its length and size; a bad range, a clip
// too long and a span with no recordings (which the API refuses when asked) are said in plain words
// beside the field; a timelapse of a span with no frames fails with its reason in local time, offers
// no retry until frames exist, then renders on retry; an item deleted meanwhile is said in words;
// delete asks first and says what goes; a viewer sees the media but no make, retry or delete. At desktop
// and phone size, with no serious accessibility violation and nothing overflowing sideways.
// Screenshots in test-output/web-app/media-hub/.
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { downloadedFile } from '../../helpers/browser.js';
import type { Person } from '../../helpers/platform.js';
import { probe, storeFrames } from '../media-hub/media-fixtures.js';
import { horizontalOverflow, seriousA11yViolations, shot, startWebApp, type ViewportName, type WebApp } from './harness.js';

let web: WebApp;
let ada: Person;
let viewer: Person;
let projectExid: string;
let cameraExid: string;
// Twelve frames thirty seconds apart from 10:00 UTC on 10 November 2026.
const CLIP_FROM = Date.UTC(2026, 10, 10, 10, 0);
// A span with nothing recorded until the test stores frames in it (the retry case).
const LATER_FROM = Date.UTC(2026, 10, 12, 8, 0);

beforeAll(async () => {
  web = await startWebApp();
  ada = await web.tp.person('ada');
  viewer = await web.tp.person('vic');
  projectExid = (await web.tp.project(ada, 'Harbour Tower')).exid;
  cameraExid = (await web.tp.camera(ada, projectExid, 'Crane north')).exid;
  await web.tp.camera(ada, projectExid, 'Gate south');
  await web.tp.addMember(ada, projectExid, viewer, 'viewer');
  await storeFrames(
    web.tp,
    cameraExid,
    Array.from({ length: 12 }, (_, i) => new Date(CLIP_FROM + i * 30_000)),
  );
}, 60_000);
afterAll(async () => {
  await web?.close();
});

/** A UTC instant as the datetime-local value a person in the browser's time zone would type. */
const localValue = (page: Page, ms: number) =>
  page.evaluate(
    `(() => { const d = new Date(${ms}); const p = (n) => String(n).padStart(2, '0'); return d.getFullYear() + '-' + p(d.getMonth() + 1) + '-' + p(d.getDate()) + 'T' + p(d.getHours()) + ':' + p(d.getMinutes()); })()`,
  ) as Promise<string>;

const status = (page: Page) => page.locator('.media-status').textContent();
const card = (page: Page, title: string) => page.locator('li.media-item', { has: page.getByRole('heading', { name: title, exact: true }) });

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
  await shot(page, 'media-hub', name, viewport);
}
/** The page's errors but axe's (see checkPage) and the refused submissions the test makes on purpose. */
const pageErrors = (errors: string[]) => errors.filter((e) => !e.startsWith('Applying inline style violates') && !/status of 400/.test(e));

async function fillRange(page: Page, from: number, to: number): Promise<void> {
  await page.fill('#media-from', await localValue(page, from));
  await page.fill('#media-to', await localValue(page, to));
}

describe('the media hub screen', () => {
  it('makes a clip with the keyboard, follows its render and downloads a real MP4 (desktop)', async () => {
    const viewport = 'desktop';
    const { page, errors } = await web.open(ada, viewport, `#/projects/${projectExid}/media`);
    await expect.poll(() => page.locator('.media-list p.card').textContent(), { timeout: 20_000 }).toMatch(/No media yet/);
    expect(await page.title()).toBe('Harbour Tower: media hub · Overlook');
    expect(await page.locator('nav.tabs a[aria-current="page"]').textContent()).toBe('Media hub');
    await checkPage(page, viewport, '1-empty');

    // Keyboard only: open the form, type, submit with Enter.
    await page.getByRole('button', { name: 'Make a clip' }).focus();
    await page.keyboard.press('Enter');
    await page.locator('#media-title').waitFor();
    expect(await page.getByRole('button', { name: 'Make a clip' }).getAttribute('aria-expanded')).toBe('true');
    expect(await page.locator('#media-camera option').allTextContents()).toEqual(['Crane north', 'Gate south']);
    await page.locator('#media-title').focus();
    await page.keyboard.type('Morning pour');
    // The range backwards: plain words beside the end field, which is marked and takes the focus.
    await fillRange(page, CLIP_FROM + 6 * 60_000, CLIP_FROM);
    await page.locator('#media-fps').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#media-to-error').textContent()).toBe('The end must be after the start.');
    expect(await page.locator('#media-to-error').getAttribute('role')).toBe('alert');
    expect(await page.locator('#media-to').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#media-to').getAttribute('aria-describedby')).toContain('media-to-error');
    expect(await page.evaluate('document.activeElement.id')).toBe('media-to');
    expect(await page.textContent('main')).not.toMatch(/server refused|to_date|from_date/);
    // What was typed stays for the person to correct.
    expect(await page.inputValue('#media-title')).toBe('Morning pour');
    expect(await page.inputValue('#media-from')).toBe(await localValue(page, CLIP_FROM + 6 * 60_000));
    await checkPage(page, viewport, '2-bad-range');
    // Longer than a clip may be: the API's limit, in plain words beside the field.
    await fillRange(page, CLIP_FROM, CLIP_FROM + 25 * 3_600_000);
    await page.locator('#media-fps').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#media-to-error').textContent()).toBe('A clip covers at most 24 hours. For a longer span, make a timelapse.');
    // A span the camera recorded nothing in: refused when asked, not queued to fail.
    await fillRange(page, CLIP_FROM - 2 * 3_600_000, CLIP_FROM - 3_600_000);
    await page.locator('#media-fps').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#media-from-error').textContent()).toMatch(/^The camera recorded nothing between these times\./);
    expect(await page.locator('#media-from').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#media-to').getAttribute('aria-invalid')).toBeNull();
    await checkPage(page, viewport, '2b-nothing-recorded');
    expect((await web.tp.app.inject({ method: 'GET', url: `/v2/projects/${projectExid}/media-hub`, headers: ada.auth })).json().data).toEqual([]);

    await fillRange(page, CLIP_FROM, CLIP_FROM + 6 * 60_000);
    await page.locator('#media-fps').focus();
    await page.keyboard.press('Enter');
    // The form closes, focus returns to its button, and the status line follows the render to its end.
    await expect.poll(() => page.locator('#media-form').count()).toBe(0);
    expect(await page.evaluate('document.activeElement.textContent.trim()')).toBe('Make a clip');
    await expect.poll(() => status(page)).toMatch(/^Clip “Morning pour” is (queued|rendering|ready)/);
    await expect.poll(() => status(page), { timeout: 60_000 }).toBe('Clip “Morning pour” is ready to watch or download.');
    const clip = card(page, 'Morning pour');
    expect(await clip.locator('.media-badge').textContent()).toBe('Ready');
    expect(await clip.locator('.media-meta').textContent()).toContain('Crane north');
    // Twelve frames at 4 a second: three seconds of video, and its size.
    expect(await clip.locator('.media-size').textContent()).toMatch(/^Length 3 s · \d+(\.\d)? (B|KB|MB)$/);
    await expect.poll(() => clip.locator('.media-thumb img').getAttribute('src')).toMatch(/^blob:/);

    // The download is the rendered MP4 itself, fetched with the person's token.
    const [download] = await Promise.all([page.waitForEvent('download'), clip.getByRole('button', { name: 'Download Morning pour' }).press('Enter')]);
    expect(download.suggestedFilename()).toBe('Morning-pour.mp4');
    const bytes = readFileSync(await downloadedFile(download));
    expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
    const p = await probe(bytes, 'mp4');
    expect(p.codec).toBe('h264');
    expect(p.frames).toBeGreaterThan(0);

    // Watching plays the same file in the page.
    await clip.getByRole('button', { name: 'Watch Morning pour' }).click();
    await expect.poll(() => clip.locator('video').getAttribute('src')).toMatch(/^blob:/);
    await checkPage(page, viewport, '3-clip-ready');

    // Delete asks first, saying what goes; Escape keeps the clip, the second time it goes.
    await clip.getByRole('button', { name: 'Delete Morning pour' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete “Morning pour”?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('removes the clip from the project’s media hub for everyone, with its video and thumbnail');
    await checkPage(page, viewport, '4-confirm-delete');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await clip.count()).toBe(1);
    await clip.getByRole('button', { name: 'Delete Morning pour' }).click();
    await dialog.getByRole('button', { name: 'Delete clip' }).click();
    await expect.poll(() => clip.count()).toBe(0);
    expect(await status(page)).toBe('Deleted clip “Morning pour”.');
    const left = await web.tp.app.inject({ method: 'GET', url: `/v2/projects/${projectExid}/media-hub`, headers: ada.auth });
    expect(left.json().data).toEqual([]);

    // An item someone else deleted meanwhile: the download says so in words, never a bare "not found".
    const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer();
    const upload = await web.tp.app.inject({
      method: 'POST',
      url: `/v2/projects/${projectExid}/media-hub`,
      headers: ada.auth,
      payload: { type: 'file', title: 'Site plan', file: png.toString('base64'), file_name: 'plan.png' },
    });
    expect(upload.statusCode, upload.body).toBe(201);
    await page.reload();
    const plan = card(page, 'Site plan');
    await plan.waitFor({ timeout: 20_000 });
    const gone = await web.tp.app.inject({ method: 'DELETE', url: `/v2/projects/${projectExid}/media-hub/${upload.json().id}`, headers: ada.auth });
    expect(gone.statusCode).toBe(204);
    await plan.getByRole('button', { name: 'Download Site plan' }).press('Enter');
    await expect.poll(() => plan.locator('p.error').textContent()).toMatch(/^This item is no longer in the media hub: someone may have deleted it\./);
    expect(await page.textContent('main')).not.toMatch(/not found/i);
    expect(pageErrors(errors).filter((e) => !/status of 404/.test(e))).toEqual([]);
  }, 90_000);

  it('shows a failed timelapse with its reason and renders it on retry (phone)', async () => {
    const viewport = 'phone';
    const { page, errors } = await web.open(ada, viewport, `#/projects/${projectExid}/media`);
    await page.getByRole('button', { name: 'Make a timelapse' }).click();
    await page.fill('#media-title', 'Slab week');
    await page.selectOption('#media-camera', { label: 'Crane north' });
    await fillRange(page, LATER_FROM, LATER_FROM + 3_600_000);
    await page.fill('#media-duration', '2');
    await checkPage(page, viewport, '5-timelapse-form');
    await page.getByRole('button', { name: 'Make timelapse' }).click();
    await expect.poll(() => status(page), { timeout: 60_000 }).toMatch(/^Timelapse “Slab week” failed: .+/);
    const item = card(page, 'Slab week');
    expect(await item.locator('.media-badge').textContent()).toBe('Failed');
    // The reason in the person's own clock (never the API's UTC timestamps), and no Retry that would fail again.
    const reason = (await item.locator('p.error').textContent()) ?? '';
    expect(reason).toMatch(/^No recorded frames between .+ and .+\.$/);
    expect(reason).not.toMatch(/\d{4}-\d\d-\d\dT/);
    const localStart = (await page.evaluate(
      `new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' }).format(${LATER_FROM})`,
    )) as string;
    expect(reason).toContain(localStart);
    expect(await status(page)).toContain(localStart);
    expect(await item.getByRole('button', { name: 'Download Slab week' }).count()).toBe(0);
    await expect.poll(() => item.locator('.media-no-retry').textContent()).toMatch(/recorded nothing in this range, so a retry would fail/);
    expect(await item.getByRole('button', { name: 'Retry Slab week' }).count()).toBe(0);
    await checkPage(page, viewport, '6-failed');

    // Frames arrive for that span; looked for again, a retry is offered and renders it.
    await storeFrames(
      web.tp,
      cameraExid,
      Array.from({ length: 6 }, (_, i) => new Date(LATER_FROM + i * 60_000)),
    );
    await item.getByRole('button', { name: 'Look for recordings again for Slab week' }).click();
    await item.getByRole('button', { name: 'Retry Slab week' }).click();
    await expect.poll(() => status(page), { timeout: 60_000 }).toBe('Timelapse “Slab week” is ready to watch or download.');
    expect(await item.locator('.media-badge').textContent()).toBe('Ready');
    expect(await item.textContent()).toContain('attempt 2');
    await expect.poll(() => item.locator('.media-thumb img').getAttribute('src')).toMatch(/^blob:/);
    await checkPage(page, viewport, '7-retried');
    expect(pageErrors(errors)).toEqual([]);
  }, 90_000);

  for (const viewport of ['desktop', 'phone'] as ViewportName[]) {
    it(`lets a viewer watch and download but not make or delete (${viewport})`, async () => {
      const { page, errors } = await web.open(viewer, viewport, `#/projects/${projectExid}/media`);
      const item = card(page, 'Slab week');
      await item.waitFor({ timeout: 20_000 });
      expect(await page.getByRole('button', { name: 'Make a clip' }).count()).toBe(0);
      expect(await item.getByRole('button', { name: 'Delete Slab week' }).count()).toBe(0);
      expect(await item.getByRole('button', { name: 'Download Slab week' }).count()).toBe(1);
      expect(await page.textContent('main')).toContain('Editors make clips and timelapses');
      await checkPage(page, viewport, '8-viewer');
      expect(pageErrors(errors)).toEqual([]);
    });
  }
});
