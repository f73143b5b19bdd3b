// A project's cameras in a real browser on a real platform: the grid shows each camera's picture now
// (a simulated camera's image really loads, and is fetched again while the screen is open), its status,
// a clear "no image" for a camera that cannot be reached, and links to the live view; a project without
// cameras says so. Desktop and phone; a camera opened with the keyboard alone; axe; no sideways overflow;
// no page errors. Screenshots in test-output/web-app/cameras/.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Person } from '../../helpers/platform.js';
import { horizontalOverflow, seriousA11yViolations, shot, startWebApp, type ViewportName, type WebApp } from './harness.js';

const LONG = { timeout: 45_000, interval: 250 };

let web: WebApp;
let ada: Person;
let project: { exid: string; name: string };
let empty: { exid: string; name: string };
let gate: { exid: string };
let failingCamera: Server;

beforeAll(async () => {
  // A camera whose snapshot URL answers 500: it "cannot be reached".
  failingCamera = createServer((_req, res) => res.writeHead(500).end('boom'));
  await new Promise<void>((r) => failingCamera.listen(0, '127.0.0.1', r));
  // The failing camera listens on 127.0.0.1: opted in as a site's LAN would be (docs/security.md).
  web = await startWebApp({ OVERLOOK_ALLOWED_NETWORKS: '127.0.0.1/32' });
  ada = await web.tp.person('ada');
  project = await web.tp.project(ada, 'Harbour Tower');
  empty = await web.tp.project(ada, 'Empty Lot');
  gate = await web.tp.camera(ada, project.exid, 'Gate camera');
  const res = await web.tp.app.inject({
    method: 'POST',
    url: '/v2/cameras',
    headers: ada.auth,
    payload: { name: 'Broken camera', project_exid: project.exid, snapshot_url: `http://127.0.0.1:${(failingCamera.address() as AddressInfo).port}/snap.jpg` },
  });
  expect(res.statusCode).toBe(201);
});
afterAll(async () => {
  await web?.close();
  failingCamera?.close();
});

const card = (name: string) => `li.camera-card:has(.camera-name:text-is("${name}"))`;
/** The camera card's <img>: whether it loaded a real image, its object URL and its alt text. */
const image = (page: Page, name: string) =>
  page.evaluate(`(() => {
    const li = [...document.querySelectorAll('li.camera-card')].find((c) => c.querySelector('.camera-name')?.textContent === ${JSON.stringify(name)});
    const i = li?.querySelector('img.camera-picture');
    return { loaded: !!i && i.complete && i.naturalWidth > 0, src: i?.src ?? null, alt: i?.alt ?? null };
  })()`) as Promise<{ loaded: boolean; src: string | null; alt: string | null }>;

/**
 * The page's errors but the refused picture of the broken camera (the browser logs the 502) and the
 * policy reports of axe-core's own inline styles (each test checks `errors` before its first axe run).
 */
const unexpected = (errors: string[]) => errors.filter((e) => !/status of 502|^Applying inline style violates/.test(e));

describe('a project’s cameras', () => {
  for (const viewport of ['desktop', 'phone'] as ViewportName[]) {
    it(`shows each camera’s picture now and status, and "no image" for one that cannot be reached (${viewport})`, async () => {
      const { page, errors } = await web.open(ada, viewport, `#/projects/${project.exid}`);
      await page.waitForSelector('h1:text("Harbour Tower")');
      expect(await page.title()).toBe('Harbour Tower · Overlook');
      expect(await page.textContent('.tabs a[aria-current="page"]')).toBe('Cameras');
      expect(await page.locator('li.camera-card .camera-name').allTextContents()).toEqual(expect.arrayContaining(['Gate camera', 'Broken camera']));

      // The simulated camera's picture really loaded, and its alt text names the camera.
      await expect.poll(async () => (await image(page, 'Gate camera')).loaded, LONG).toBe(true);
      expect((await image(page, 'Gate camera')).alt).toMatch(/^The picture from Gate camera at /);
      expect(await page.textContent(`${card('Gate camera')} .camera-meta`)).toMatch(/Not checked yet|Online|Offline/);
      expect(await page.textContent(`${card('Gate camera')} .camera-meta`)).toContain('Picture at');
      // The broken one says so, with the platform's reason.
      await page.waitForSelector(`${card('Broken camera')} .no-image`);
      expect(await page.textContent(`${card('Broken camera')} .no-image`)).toMatch(/No image.*Broken camera cannot be reached.*HTTP 500/);
      expect(await page.getAttribute(`${card('Gate camera')} a`, 'href')).toBe(`#/cameras/${gate.exid}`);

      expect(unexpected(errors)).toEqual([]);
      expect(await seriousA11yViolations(page)).toEqual([]);
      expect(await horizontalOverflow(page)).toBe(0);
      await shot(page, 'cameras', '1-grid', viewport);

      if (viewport === 'desktop') {
        // While the screen is open the picture is fetched again (every 10 s): a new object URL.
        const first = (await image(page, 'Gate camera')).src;
        await expect.poll(async () => (await image(page, 'Gate camera')).src, { timeout: 40_000, interval: 500 }).not.toBe(first);
        expect((await image(page, 'Gate camera')).loaded).toBe(true);
        await page.click(`${card('Gate camera')} a`);
      } else {
        // Keyboard only: Tab to the camera's link, Enter opens its live view.
        let reached = false;
        for (let i = 0; i < 40 && !reached; i++) {
          await page.keyboard.press('Tab');
          reached = (await page.evaluate(`document.activeElement?.getAttribute('href')`)) === `#/cameras/${gate.exid}`;
        }
        expect(reached).toBe(true);
        await page.keyboard.press('Enter');
      }
      await page.waitForSelector('h1:text("Gate camera")');
      // Back to the grid so the live view does not keep the camera's stream open.
      await page.goBack();
      await page.waitForSelector('h1:text("Harbour Tower")');
      expect(unexpected(errors)).toEqual([]);
    });
  }

  it('a project without cameras says so', async () => {
    const { page, errors } = await web.open(ada, 'phone', `#/projects/${empty.exid}`);
    await page.waitForSelector('h1:text("Empty Lot")');
    expect(await page.textContent('.empty')).toBe('This project has no cameras yet.');
    expect(await page.locator('.tabs a').allTextContents()).toEqual([
      'Cameras',
      'Media hub',
      'Comments',
      'Members',
      'Site recorders',
      'Gate report',
      'Video walls',
      'Settings',
    ]);
    expect(errors).toEqual([]);
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(await horizontalOverflow(page)).toBe(0);
    await shot(page, 'cameras', '1-grid-empty', 'phone');
  });
});
