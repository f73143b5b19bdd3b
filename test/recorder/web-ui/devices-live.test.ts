// The recorder's web UI adding and changing devices and keeping up with them, in a real browser against
// a real recorder, at desktop and phone size. On the desktop by keyboard alone: sign in, add a file
// device (each mistake said beside its field, by the page and by the recorder), change it to record,
// and watch its state and the day's recordings arrive without a reload (checked through the recorder
// API); zoom the timeline until a 20 s run is wide, play it, full screen, and export a clip named in
// the device's local time. On the phone: the list follows a state change, an IP camera is added, the
// zoomed timeline still shows the short run; a read-only user gets no add or edit. Every state is checked with axe-core, for sideways
// overflow and page errors, and screenshotted to test-output/recorder-ui/devices/.
// Code that runs in the page is passed as strings: the suite is type-checked without the DOM's types.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pad2, wallClock } from '../../../src/lib/time/wall-clock.js';
import { launchBrowser, type TestBrowser } from '../../helpers/browser.js';
import { horizontalOverflow, isToolStyleRefusal, seriousA11yViolations, toolTouched } from '../../helpers/page-checks.js';
import { buildTestRecorder, eventually, type TestRecorder } from '../../helpers/recorder.js';

const SHOTS = join(import.meta.dirname, '..', '..', '..', 'test-output', 'recorder-ui', 'devices');
const TZ = 'Europe/Berlin';
const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;
type Viewport = keyof typeof VIEWPORTS;
/**
 * A refusal the page handles, which Chromium logs: a form the recorder turned down, a playlist or WHEP
 * offer while nothing records, the admin-only user list a viewer's page asks to know it is no admin.
 */
const REFUSED_LOAD = /^Failed to load resource: the server responded with a status of (400|403|404|409|503)/;

let r: TestRecorder;
let url: string;
let browser: TestBrowser | undefined;
const contexts: BrowserContext[] = [];
/** The file device the desktop adds, once it exists. */
let yard: { id: string } | undefined;

interface Device {
  id: string;
  name: string;
  type: string;
  timezone: string;
  state: string;
  stream_config: Record<string, string>;
  storage_config: { recording_mode: string };
}
const api = async (method: 'GET' | 'PUT', path: string, payload?: object) =>
  (await r.app.inject({ method, url: path, headers: r.bearer(r.adminToken), ...(payload ? { payload } : {}) })).json();
const devices = async () => (await api('GET', '/api/devices')) as Device[];
const runs = async (id: string) => (await api('GET', `/api/devices/${id}/recordings`)) as { start_date: string; end_date: string }[];

/** `HH:MM:SS` and `YYYY-MM-DD` of an instant on the device's clock. */
const local = (ms: number) => {
  const c = wallClock(ms, TZ);
  return { day: `${c.year}-${pad2(c.month)}-${pad2(c.day)}`, time: `${pad2(c.hour)}:${pad2(c.minute)}:${pad2(c.second)}` };
};
const seconds = (hms: string) => hms.split(':').reduce((s, n) => s * 60 + Number(n), 0);

async function open(viewport: Viewport): Promise<{ page: Page; errors: string[] }> {
  const context = await browser!.newContext(VIEWPORTS[viewport], { acceptDownloads: true });
  contexts.push(context);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() !== 'error' || isToolStyleRefusal(page, m.text()) || REFUSED_LOAD.test(m.text())) return;
    errors.push(`${m.text()} (${m.location().url})`);
  });
  await page.goto(`${url}/`);
  // Gone if the page ever reloads: what follows must show up in this very document.
  await page.evaluate('window.sameDocument = true');
  return { page, errors };
}

/** No page error so far, no serious accessibility violation, nothing overflowing sideways; a screenshot. */
async function checkPage(page: Page, errors: string[], name: string, viewport: Viewport) {
  expect(errors).toEqual([]);
  expect(await seriousA11yViolations(page)).toEqual([]);
  expect(await horizontalOverflow(page)).toBe(0);
  toolTouched(page);
  await page.screenshot({ path: join(SHOTS, `${name}-${viewport}.png`), fullPage: true });
  errors.splice(0);
}

const focused = (page: Page) => page.evaluate<string>('document.activeElement?.id || document.activeElement?.tagName');
/** Presses Tab until `selector` has the focus: the control is reachable by keyboard, in order. */
async function tabTo(page: Page, selector: string) {
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate<boolean>(`document.activeElement?.matches(${JSON.stringify(selector)}) ?? false`)) return;
  }
  throw new Error(`Tab never reached ${selector}`);
}
async function replaceText(page: Page, text: string) {
  await page.keyboard.press('Control+A');
  await page.keyboard.type(text);
}
const rangeWidths = (page: Page) => page.evaluate<number[]>('[...document.querySelectorAll("#ranges .range")].map((e) => e.getBoundingClientRect().width)');

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  r = await buildTestRecorder();
  url = await r.app.listen({ host: '127.0.0.1', port: 0 });
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await browser?.close();
  await r?.close();
});

describe('devices in the recorder web UI, by keyboard alone (desktop)', () => {
  let page: Page;
  let errors: string[];
  beforeAll(async () => {
    ({ page, errors } = await open('desktop'));
  });

  it('signs in and adds a file device, each mistake said beside its field', async () => {
    await tabTo(page, '#email');
    await page.keyboard.type('admin@example.com');
    await page.keyboard.press('Tab');
    await page.keyboard.type('password-123');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#devices:not([hidden])');
    await tabTo(page, '#add-device');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#device-edit:not([hidden])');
    expect(await page.title()).toBe('Add a device · Overlook recorder');
    await checkPage(page, errors, '1-add-form', 'desktop');

    // Nothing typed: said beside the name, which takes the focus.
    await tabTo(page, '#device-save');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.textContent('#f-name-error')).toBe('Give the device a name, e.g. North gate.');
    expect(await page.getAttribute('#f-name', 'aria-invalid')).toBe('true');
    expect(await focused(page)).toBe('f-name');
    expect(await page.getAttribute('#f-name', 'aria-describedby')).toContain('f-name-error');
    await checkPage(page, errors, '2-name-missing', 'desktop');

    // A file outside the media folder: the recorder refuses it, and the page says so beside the path.
    await page.keyboard.type('Yard by keyboard');
    await tabTo(page, '#f-type input[value=ip]');
    await page.keyboard.press('ArrowDown');
    expect(await page.isVisible('#f-path')).toBe(true);
    expect(await page.isVisible('#f-stream-uri')).toBe(false);
    await tabTo(page, '#f-timezone');
    await replaceText(page, TZ);
    await tabTo(page, '#f-path');
    await page.keyboard.type('/etc/hostname');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.textContent('#f-path-error')).toMatch(/^This must be a file inside the media folder /);
    expect(await page.textContent('#f-name-error')).toBe('');
    expect(await page.getAttribute('#f-name', 'aria-invalid')).toBeNull();
    expect(await focused(page)).toBe('f-path');
    await checkPage(page, errors, '3-path-refused', 'desktop');
    expect((await devices()).length).toBe(0);

    // The right file, not recording yet.
    await replaceText(page, r.video);
    await tabTo(page, '#f-mode');
    await page.keyboard.press('ArrowDown');
    expect(await page.inputValue('#f-mode')).toBe('never');
    await tabTo(page, '#device-save');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#device:not([hidden])');
    expect(await page.textContent('#status')).toBe('Added Yard by keyboard.');
    expect(await page.textContent('#device-title')).toBe('Yard by keyboard');
    const [made] = await devices();
    expect(made).toMatchObject({
      name: 'Yard by keyboard',
      type: 'file',
      timezone: TZ,
      stream_config: { path: r.video },
      storage_config: { recording_mode: 'never' },
    });
    yard = made;
    expect(await page.textContent('#device-state')).toBe('Stopped');
    await expect.poll(() => page.textContent('#ranges-summary')).toBe('Nothing recorded on this day.');
    expect(await page.textContent('.tz')).toBe(TZ);
    await checkPage(page, errors, '4-added', 'desktop');
  });

  it('changes it to record: the state and the recordings arrive without a reload', async () => {
    await tabTo(page, '#edit-device');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#device-edit:not([hidden])');
    expect(await page.textContent('#edit-title')).toBe('Edit Yard by keyboard');
    expect(await page.inputValue('#f-path')).toBe(r.video);
    expect(await page.isDisabled('#f-type input[value=ip]')).toBe(true);
    await tabTo(page, '#f-name');
    await replaceText(page, 'Yard gate');
    await tabTo(page, '#f-mode');
    await page.keyboard.press('ArrowUp');
    expect(await page.inputValue('#f-mode')).toBe('always');
    await checkPage(page, errors, '5-edit-form', 'desktop');
    await tabTo(page, '#device-save');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#device:not([hidden])');
    expect(await page.textContent('#status')).toBe('Saved the changes to Yard gate. Its recording restarts with them.');

    // Through the recorder API: it records.
    await eventually(async () => (await runs(yard!.id)).length > 0, 30_000, 'the device added in the UI records');
    expect((await devices())[0]).toMatchObject({ name: 'Yard gate', storage_config: { recording_mode: 'always' } });
    // And the page says so by itself.
    await expect.poll(() => page.textContent('#device-state'), { timeout: 20_000 }).toBe('Recording');
    await expect.poll(() => page.textContent('#ranges-summary'), { timeout: 20_000 }).toMatch(/^1 recorded period/);
    expect(await page.locator('#ranges .range').count()).toBe(1);
    expect(await page.inputValue('#export-start')).toMatch(/^\d\d:\d\d:\d\d$/);
    await checkPage(page, errors, '6-recording', 'desktop');

    // About 20 s later another admin stops the recording through the API: the page follows.
    await eventually(
      async () => {
        const [run] = await runs(yard!.id);
        return run !== undefined && Date.parse(run.end_date) - Date.parse(run.start_date) >= 20_000;
      },
      60_000,
      'a 20 s run',
    );
    await api('PUT', `/api/devices/${yard!.id}`, { storage_config: { recording_mode: 'never' } });
    await expect.poll(() => page.textContent('#device-state'), { timeout: 20_000 }).toBe('Stopped');
    expect(await page.evaluate('window.sameDocument')).toBe(true);
  });

  it('zooms the timeline until the 20 s run is wide, plays it, goes full screen', async () => {
    // The whole day: a 20 s run is a sliver.
    const [dayWide] = await rangeWidths(page);
    expect(dayWide).toBeLessThan(5);
    await tabTo(page, '#timeline');
    for (let i = 0; i < 5; i++) await page.keyboard.press('+');
    await expect.poll(() => page.textContent('#timeline-view')).toMatch(/^Showing \d\d:\d\d:\d\d–\d\d:\d\d:\d\d \(5 min\)\.$/);
    const [zoomed] = await rangeWidths(page);
    expect(zoomed).toBeGreaterThan(50);
    expect(await page.textContent('#timeline-hint')).toContain('arrow keys (1 s; with Shift 10 s)');

    // From the run's end, ten seconds back, Enter plays the recording from there.
    const [run] = await runs(yard!.id);
    for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.textContent('#mode')).toMatch(/^Recorded, from \d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const shown = (await page.textContent('#mode'))!.slice('Recorded, from '.length);
    const expected = local(Date.parse(run!.end_date) - 10_000);
    expect(shown.slice(0, 10)).toBe(expected.day);
    expect(Math.abs(seconds(shown.slice(11)) - seconds(expected.time))).toBeLessThanOrEqual(3);
    expect(await page.isVisible('#cursor')).toBe(true);
    await expect.poll(() => page.textContent('#transport'), { timeout: 15_000 }).toBe('HLS');
    await checkPage(page, errors, '7-zoomed-playing', 'desktop');

    await tabTo(page, '#fullscreen');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate('document.fullscreenElement?.id ?? null')).toBe('player');
    await expect.poll(() => page.textContent('#fullscreen')).toBe('Exit full screen');
    await page.screenshot({ path: join(SHOTS, '8-full-screen-desktop.png') });
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate('document.fullscreenElement')).toBeNull();
    await expect.poll(() => page.textContent('#fullscreen')).toBe('Full screen');
  });

  it('exports a clip named in the device’s local time, as the form is', async () => {
    const start = await page.inputValue('#export-start');
    await tabTo(page, '#export-duration');
    await replaceText(page, '5');
    const download = page.waitForEvent('download');
    await page.keyboard.press('Enter');
    const name = (await download).suggestedFilename();
    const m = /^footage-Yard-gate-(\d{4}-\d\d-\d\d)_(\d\d)-(\d\d)-(\d\d)\.mp4$/.exec(name);
    expect(m, name).not.toBeNull();
    expect(m![1]).toBe(local(Date.now()).day);
    // The clip starts on the keyframe at or before the asked moment: within a second or two of it.
    expect(seconds(start) - seconds(`${m![2]}:${m![3]}:${m![4]}`)).toBeGreaterThanOrEqual(0);
    expect(seconds(start) - seconds(`${m![2]}:${m![3]}:${m![4]}`)).toBeLessThanOrEqual(2);
    await expect.poll(() => page.textContent('#export-status')).toContain(`Downloaded ${name}`);

    // The recorder itself names the file on the device's clock too.
    const [run] = await runs(yard!.id);
    const res = await r.app.inject({
      method: 'GET',
      url: `/api/devices/${yard!.id}/footage?start_date=${encodeURIComponent(run!.start_date)}&duration=5`,
      headers: r.bearer(r.adminToken),
    });
    expect(res.statusCode).toBe(200);
    const from = local(Date.parse(res.headers['x-start-date'] as string));
    expect(res.headers['content-disposition']).toBe(`attachment; filename="footage-${from.day}T${from.time.replaceAll(':', '-')}.mp4"`);
    await checkPage(page, errors, '9-exported', 'desktop');
    expect(await page.evaluate('window.sameDocument')).toBe(true);
  });
});

describe('devices in the recorder web UI (phone)', () => {
  it('is usable at 390 px: the zoomed timeline, the list following a state change, an IP camera added', async () => {
    const { page, errors } = await open('phone');
    await page.fill('#email', 'admin@example.com');
    await page.fill('#password', 'password-123');
    await page.press('#password', 'Enter');
    const item = page.locator(`#device-list li[data-device-id="${yard!.id}"]`);
    await expect.poll(() => item.locator('.state').textContent()).toBe('Stopped');
    await checkPage(page, errors, '1-list', 'phone');

    await item.locator('a').click();
    await page.waitForSelector('#device:not([hidden])');
    await expect.poll(() => page.locator('#ranges .range').count()).toBe(1);
    for (let i = 0; i < 5; i++) await page.click('#zoom-in');
    expect(await page.getAttribute('#zoom-in', 'aria-disabled')).toBe('false');
    const [zoomed] = await rangeWidths(page);
    expect(zoomed).toBeGreaterThan(20);
    expect(await page.isVisible('#fullscreen')).toBe(true);
    await checkPage(page, errors, '2-zoomed', 'phone');

    // Back on the list, the recording resumes (through the API): the list says so without a reload.
    await page.click('#device a[href="#/"]');
    await page.waitForSelector('#devices:not([hidden])');
    await api('PUT', `/api/devices/${yard!.id}`, { storage_config: { recording_mode: 'always' } });
    await expect.poll(() => item.locator('.state').textContent(), { timeout: 20_000 }).toBe('Recording');

    // An IP camera: an address that is not RTSP is said beside its field, before anything is sent.
    await page.click('#add-device');
    await page.fill('#f-name', 'Crane camera');
    await page.fill('#f-timezone', 'Mars/Olympus');
    await page.fill('#f-stream-uri', 'http://192.0.2.10/stream');
    await page.click('#device-save');
    await expect.poll(() => page.textContent('#f-stream-uri-error')).toBe('This must be an address starting with rtsp:// or rtsps://.');
    expect(await page.textContent('#f-timezone-error')).toBe('Mars/Olympus is not a time zone; choose one from the list, e.g. Europe/Berlin.');
    await checkPage(page, errors, '3-ip-errors', 'phone');
    await page.fill('#f-timezone', TZ);
    await page.fill('#f-stream-uri', 'rtsp://127.0.0.1:9/nothing-here');
    await page.fill('#f-username', 'viewer');
    await page.fill('#f-password', 'secret-1');
    await page.click('#device-save');
    await page.waitForSelector('#device:not([hidden])');
    expect(await page.textContent('#device-title')).toBe('Crane camera');
    const crane = (await devices()).find((d) => d.name === 'Crane camera');
    expect(crane).toMatchObject({
      type: 'ip',
      timezone: TZ,
      stream_config: { stream_uri: 'rtsp://127.0.0.1:9/nothing-here' },
      credentials: { username: 'viewer', has_password: true },
    });
    // Nothing answers there: the page shows the recorder giving up, with its reason, by itself.
    await expect.poll(() => page.textContent('#device-state'), { timeout: 30_000 }).toBe('Failed');
    expect(await page.textContent('#device-reason')).not.toBe('');
    await checkPage(page, errors, '4-ip-added', 'phone');
    expect(await page.evaluate('window.sameDocument')).toBe(true);
  });

  it('shows a read-only user the devices without the add and edit buttons', async () => {
    const { page, errors } = await open('phone');
    await page.fill('#email', 'viewer@example.com');
    await page.fill('#password', 'password-123');
    await page.press('#password', 'Enter');
    await page.waitForSelector('#devices:not([hidden])');
    await expect.poll(() => page.locator('#device-list li').count()).toBe(2);
    expect(await page.isVisible('#add-device')).toBe(false);
    await page.click(`#device-list li[data-device-id="${yard!.id}"] a`);
    await page.waitForSelector('#device:not([hidden])');
    expect(await page.isVisible('#edit-device')).toBe(false);
    // Typed by hand, the form's address sends a viewer back, saying why.
    await page.evaluate(`location.hash = '#/devices/${yard!.id}/edit'`);
    await expect.poll(() => page.textContent('#status')).toBe('Only a recorder admin can add or change devices.');
    await page.waitForSelector('#device:not([hidden])');
    await checkPage(page, errors, '5-viewer', 'phone');
  });
});
