// Adding and setting up a camera in a real browser on a real platform, at desktop and phone size: an
// owner adds a camera on the site (a loopback snapshot server with a login) with the keyboard alone,
// the platform tries it at once and shows its first picture, and the API then serves its snapshot;
// in its settings cloud recording is turned on (the recorder really stores frames) and a weekly
// schedule saved. Wrong fields are said beside them; a camera that does not answer says why; the
// settings' connection check tries details without saving them; a camera is deleted after a confirm;
// a viewer gets no setup action.
// Screenshots in test-output/web-app/setup-camera/.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Person } from '../../helpers/platform.js';
import { jpeg } from '../projects/settings-helpers.js';
import { startWebApp, type ViewportName, type WebApp } from './harness.js';
import { checkPage, tabTo } from './setup-helpers.js';

const LONG = { timeout: 45_000, interval: 250 };
const AREA = 'setup-camera';

let web: WebApp;
let ada: Person;
let project: { exid: string; name: string };
let camera: Server;
let failing: Server;
let snapshotUrl: string;
let failingUrl: string;

const listen = async (server: Server) => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/snap.jpg`;
};

beforeAll(async () => {
  const frame = await jpeg(320, 180);
  // A camera on the site's LAN: a JPEG to user cam / password secret (basic auth).
  camera = createServer((req, res) => {
    if (req.headers.authorization !== `Basic ${Buffer.from('cam:secret').toString('base64')}`) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="cam"' }).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'image/jpeg' }).end(frame);
  });
  failing = createServer((_req, res) => res.writeHead(500).end('boom'));
  snapshotUrl = await listen(camera);
  failingUrl = await listen(failing);
  // Loopback opted in as a site's LAN would be (docs/security.md); the cloud recorder runs.
  web = await startWebApp({ OVERLOOK_ALLOWED_NETWORKS: '127.0.0.1/32', OVERLOOK_RECORDING_LOOP: '1' });
  ada = await web.tp.person('ada');
  project = await web.tp.project(ada, 'Harbour Tower');
}, 60_000);
afterAll(async () => {
  await web?.close();
  camera?.close();
  failing?.close();
});

const inject = (method: 'GET' | 'POST', url: string, who: Person = ada) => web.tp.app.inject({ method, url, headers: who.auth });
const camerasOf = async (exid: string) => (await inject('GET', `/v2/projects/${exid}/cameras`)).json() as { exid: string; name: string; kind: string }[];
const focused = (page: Page) => page.evaluate('document.activeElement?.id ?? null') as Promise<string | null>;
/** The picture a result panel shows: whether a real image loaded. */
const pictureLoaded = (page: Page, scope: string) =>
  page.evaluate(
    `(() => { const i = document.querySelector(${JSON.stringify(`${scope} img.camera-picture`)}); return !!i && i.complete && i.naturalWidth > 0; })()`,
  );
/** The page's errors but those a camera that does not answer makes the browser log, and axe's inline styles. */
const CAMERA_REFUSED = /status of 502|status of 504|^Applying inline style violates/;

describe('adding a camera and setting up its recording', () => {
  for (const viewport of ['desktop', 'phone'] as ViewportName[]) {
    it(`adds a camera, sees it answer, and turns recording on with a schedule, by keyboard alone (${viewport})`, async () => {
      const name = `Gate ${viewport}`;
      const { page, errors } = await web.open(ada, viewport, `#/projects/${project.exid}`);
      await page.waitForSelector('h1:text("Harbour Tower")');
      await tabTo(page, 'a.button[href$="/cameras/new"]');
      await page.keyboard.press('Enter');
      await page.waitForSelector('#camera-name');
      expect(await page.title()).toBe('Add a camera · Harbour Tower · Overlook');
      await checkPage(page, errors, AREA, '1-add-form', viewport);

      await tabTo(page, '#camera-name');
      await page.keyboard.type(name);
      await tabTo(page, '#camera-snapshot');
      await page.keyboard.type(snapshotUrl);
      await tabTo(page, '#camera-username');
      await page.keyboard.type('cam');
      await page.keyboard.press('Tab');
      expect(await focused(page)).toBe('camera-password');
      await page.keyboard.type('secret');
      await page.keyboard.press('Enter');

      // Saved, tried at once: it answered, and its first picture shows.
      await page.waitForSelector('.camera-added .check-result.check-ok', LONG);
      expect(await focused(page)).toBe('camera-added-title');
      expect(await page.textContent('.check-result')).toMatch(/Connected: the camera answered in \d+ ms/);
      await expect.poll(() => pictureLoaded(page, '.camera-added'), LONG).toBe(true);
      await checkPage(page, errors, AREA, '2-added', viewport);
      const added = (await camerasOf(project.exid)).find((c) => c.name === name);
      expect(added?.kind).toBe('ip');
      const snap = await inject('GET', `/v2/cameras/${added!.exid}/live/snapshot.jpg`);
      expect(snap.statusCode).toBe(200);
      expect(snap.headers['content-type']).toContain('image/jpeg');

      // Its settings: recording on at 60 pictures a minute, all day.
      await tabTo(page, '.camera-added a[href$="/settings"]');
      await page.keyboard.press('Enter');
      await page.waitForSelector('#camera-recording-title');
      expect(await page.textContent('h1')).toBe(`Settings of ${name}`);
      expect(await page.inputValue('#connection-username')).toBe('cam');
      expect(await page.textContent('#connection-password-hint')).toContain('A password is stored');
      await tabTo(page, 'input[name=recording-status]:checked');
      // The radios run On, Paused, Off; Off is chosen: up twice is On.
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('ArrowUp');
      expect(await page.isChecked('#recording-status-on')).toBe(true);
      await tabTo(page, '#recording-frequency');
      await page.keyboard.press('End');
      expect(await page.inputValue('#recording-frequency')).toBe('60');
      await tabTo(page, '#camera-recording-title ~ .form-buttons button[type=submit]');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.textContent('#camera-recording-title ~ .form-buttons .saved')).toContain('Saved');
      const recording = (await inject('GET', `/v2/cameras/${added!.exid}/settings/recording`)).json();
      expect(recording).toMatchObject({ status: 'on', frequency: 60, schedule: null });
      // The recorder really stores frames of the camera added in the app.
      await expect
        .poll(async () => (await inject('GET', `/v2/cameras/${added!.exid}/recordings/snapshots`)).json().meta?.total_count ?? 0, LONG)
        .toBeGreaterThan(0);
      await checkPage(page, errors, AREA, '3-recording-on', viewport);

      // A weekly schedule: a wrong window is said beside its day; a right one is saved.
      await tabTo(page, 'input[name=recording-when]:checked');
      await page.keyboard.press('ArrowDown');
      await page.waitForSelector('#schedule-monday');
      await tabTo(page, '#schedule-monday');
      await page.keyboard.press('Control+A');
      await page.keyboard.type('8-18');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.textContent('#schedule-monday-error')).toContain('“8-18” is not a time window');
      expect(await page.getAttribute('#schedule-monday', 'aria-invalid')).toBe('true');
      expect(await focused(page)).toBe('schedule-monday');
      await checkPage(page, errors, AREA, '4-schedule-invalid', viewport);
      await page.keyboard.press('Control+A');
      await page.keyboard.type('07:00-12:00, 13:00-19:00');
      await page.keyboard.press('Enter');
      await expect
        .poll(async () => (await inject('GET', `/v2/cameras/${added!.exid}/settings/recording`)).json().schedule?.monday)
        .toEqual(['07:00-12:00', '13:00-19:00']);
      const schedule = (await inject('GET', `/v2/cameras/${added!.exid}/settings/recording`)).json().schedule;
      expect(schedule.tuesday).toEqual(['07:00-19:00']);
      expect(schedule.sunday).toEqual([]);
      expect(await page.locator('#schedule-monday-error').count()).toBe(0);
      await checkPage(page, errors, AREA, '5-schedule-saved', viewport);
      expect(errors).toEqual([]);
    });
  }

  for (const viewport of ['desktop', 'phone'] as ViewportName[]) {
    it(`says what is wrong beside each field, and that a camera did not answer (${viewport})`, async () => {
      const { page, errors } = await web.open(ada, viewport, `#/projects/${project.exid}/cameras/new`);
      await page.waitForSelector('#camera-name');
      const before = (await camerasOf(project.exid)).length;
      await page.click('form.setup-form button[type=submit]');
      await expect.poll(() => page.textContent('#camera-name-error')).toContain('Give the camera a name');
      expect(await page.textContent('#camera-snapshot-error')).toContain('Give the address of the camera’s snapshot');
      expect(await page.getAttribute('#camera-name', 'aria-invalid')).toBe('true');
      expect(await focused(page)).toBe('camera-name');
      await page.fill('#camera-name', `Broken ${viewport}`);
      await page.fill('#camera-snapshot', 'ftp://192.0.2.10/snap.jpg');
      await page.fill('#camera-rtsp', 'http://192.0.2.10/stream');
      await page.fill('#camera-password', 'secret');
      await page.click('form.setup-form button[type=submit]');
      await expect.poll(() => page.textContent('#camera-snapshot-error')).toContain('starts with http:// or https://');
      expect(await page.textContent('#camera-rtsp-error')).toContain('starts with rtsp:// or rtsps://');
      expect(await page.textContent('#camera-username-error')).toContain('A password needs the user name');
      expect(await page.locator('#camera-name-error').count()).toBe(0);
      await checkPage(page, errors, AREA, '6-add-invalid', viewport);
      expect((await camerasOf(project.exid)).length).toBe(before);

      // Right shape, but the camera answers 500: added, and the screen says it did not answer, and why.
      await page.fill('#camera-snapshot', failingUrl);
      await page.fill('#camera-rtsp', '');
      await page.fill('#camera-password', '');
      await page.click('form.setup-form button[type=submit]');
      await page.waitForSelector('.camera-added .check-result.check-failed', LONG);
      expect(await page.textContent('.check-result')).toMatch(/The camera did not answer: .*500/);
      await page.waitForSelector('.camera-added .no-image');
      await checkPage(page, errors, AREA, '7-added-not-answering', viewport, CAMERA_REFUSED);
      expect((await camerasOf(project.exid)).some((c) => c.name === `Broken ${viewport}`)).toBe(true);
    });
  }

  it('tries connection details in the settings without saving them', async () => {
    const cam = (
      await web.tp.app.inject({
        method: 'POST',
        url: '/v2/cameras',
        headers: ada.auth,
        payload: { name: 'Crane', project_exid: project.exid, snapshot_url: snapshotUrl, username: 'cam', password: 'secret' },
      })
    ).json() as { exid: string };
    const { page, errors } = await web.open(ada, 'desktop', `#/cameras/${cam.exid}/settings`);
    await page.waitForSelector('#connection-snapshot');
    expect(await page.inputValue('#connection-snapshot')).toBe(snapshotUrl);
    await page.fill('#connection-password', 'wrong');
    await page.getByRole('button', { name: 'Check connection' }).click();
    await page.waitForSelector('#camera-connection-title ~ .check-result.check-failed', LONG);
    expect(await page.textContent('#camera-connection-title ~ .check-result')).toMatch(/did not answer: .*401/);
    // Nothing was saved: the stored details still work.
    expect((await inject('POST', `/v2/cameras/${cam.exid}/settings/connection/check`)).json().status).toBe('online');
    await checkPage(page, errors, AREA, '8-check-wrong-password', 'desktop');
    await page.fill('#connection-password', 'secret');
    await page.getByRole('button', { name: 'Check connection' }).click();
    await page.waitForSelector('#camera-connection-title ~ .check-result.check-ok', LONG);
    await page.fill('#connection-snapshot', '');
    await page.click('#camera-connection-title ~ .form-buttons button[type=submit]');
    await expect.poll(() => page.textContent('#connection-snapshot-error')).toContain('Give the address');
    // The name, renamed.
    await page.fill('#camera-name', 'Tower crane');
    await page.click('#camera-general-title ~ .form-buttons button[type=submit]');
    await expect.poll(async () => (await inject('GET', `/v2/cameras/${cam.exid}`)).json().name).toBe('Tower crane');
    await expect.poll(() => page.textContent('h1')).toBe('Settings of Tower crane');

    // Deleting it: the confirm says what goes, "Keep it" has the focus first; then back to the cameras.
    await page.getByRole('button', { name: 'Delete camera' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.locator('dialog.confirm-dialog[open]');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('all its recordings');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Keep it');
    await checkPage(page, errors, AREA, '10-delete-confirm', 'desktop');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate('location.hash')).toBe(`#/projects/${project.exid}`);
    expect((await inject('GET', `/v2/cameras/${cam.exid}`)).statusCode).toBe(404);
    expect(errors.filter((e) => !CAMERA_REFUSED.test(e))).toEqual([]);
  });

  for (const viewport of ['desktop', 'phone'] as ViewportName[]) {
    it(`gives a viewer no setup action (${viewport})`, async () => {
      const vic = await web.tp.person('vic');
      await web.tp.addMember(ada, project.exid, vic, 'viewer');
      const cam = await web.tp.camera(ada, project.exid, `Viewer check ${viewport}`);
      const { page, errors } = await web.open(vic, viewport, `#/projects/${project.exid}`);
      await page.waitForSelector('li.camera-card');
      expect(await page.locator('a[href$="/cameras/new"]').count()).toBe(0);
      await page.goto(`${web.url}/#/cameras/${cam.exid}/settings`);
      await expect.poll(() => page.textContent('main')).toContain('Your role on Harbour Tower is viewer');
      expect(await page.locator('form').count()).toBe(0);
      // The other tests' cameras that do not answer have no picture (the browser logs their 502).
      await checkPage(page, errors, AREA, '9-viewer', viewport, CAMERA_REFUSED);
      await page.goto(`${web.url}/#/projects/${project.exid}/cameras/new`);
      await expect.poll(() => page.textContent('main')).toContain('admins and the owner add cameras');
      expect(await page.locator('form').count()).toBe(0);
      expect(errors.filter((e) => !CAMERA_REFUSED.test(e))).toEqual([]);
    });
  }
});
