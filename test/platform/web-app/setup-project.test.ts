// Projects in a real browser on a real platform, at desktop and phone size: the projects screen shows
// each project's latest recorded frame, its status and how many of its cameras there are; a person
// starts a project with the keyboard alone (a missing name is said beside the field) and the API then
// has it with them as owner; an owner changes the project's name, time zone and status; a viewer sees
// the settings read-only. Screenshots in test-output/web-app/setup-project/.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Person } from '../../helpers/platform.js';
import { startWebApp, type ViewportName, type WebApp } from './harness.js';
import { checkPage, tabTo } from './setup-helpers.js';

const LONG = { timeout: 45_000, interval: 250 };
const AREA = 'setup-project';

let web: WebApp;
let ada: Person;
let harbour: { exid: string; name: string };
let empty: { exid: string; name: string };

beforeAll(async () => {
  web = await startWebApp();
  ada = await web.tp.person('ada');
  harbour = await web.tp.project(ada, 'Harbour Tower');
  empty = await web.tp.project(ada, 'Empty Lot');
  const cam = await web.tp.camera(ada, harbour.exid, 'Gate camera');
  await web.tp.camera(ada, harbour.exid, 'Crane camera');
  // A recorded frame of the first camera only: the card shows it, not the other camera's picture now.
  const captured = await web.tp.app.inject({ method: 'POST', url: `/v2/cameras/${cam.exid}/snapshots`, headers: ada.auth });
  expect(captured.statusCode).toBe(201);
}, 60_000);
afterAll(async () => {
  await web?.close();
});

const card = (exid: string) => `li.project-card[data-exid="${exid}"]`;
const pictureLoaded = (page: Page, exid: string) =>
  page.evaluate(
    `(() => { const i = document.querySelector(${JSON.stringify(`${card(exid)} img.project-picture`)}); return !!i && i.complete && i.naturalWidth > 0; })()`,
  );
const projectsOf = async (who: Person) =>
  (await web.tp.app.inject({ method: 'GET', url: '/v2/projects', headers: who.auth })).json() as {
    exid: string;
    name: string;
    role: string;
    timezone: string;
    status: string;
  }[];
const project = async (exid: string) => (await web.tp.app.inject({ method: 'GET', url: `/v2/projects/${exid}`, headers: ada.auth })).json();

describe('projects', () => {
  for (const viewport of ['desktop', 'phone'] as ViewportName[]) {
    it(`shows each project's picture, cameras and status, and starts a project by keyboard alone (${viewport})`, async () => {
      const { page, errors } = await web.open(ada, viewport, '#/');
      await page.waitForSelector(card(harbour.exid));
      await expect.poll(() => pictureLoaded(page, harbour.exid), LONG).toBe(true);
      expect(await page.getAttribute(`${card(harbour.exid)} img`, 'alt')).toBe('Latest picture from Gate camera');
      expect(await page.textContent(`${card(harbour.exid)} .project-cameras`)).toMatch(/^2 cameras, \d online$/);
      expect(await page.textContent(`${card(harbour.exid)} .project-status`)).toBe((await project(harbour.exid)).status);
      await expect.poll(() => page.textContent(`${card(empty.exid)} .project-picture`)).toBe('No camera yet');
      expect(await page.textContent(`${card(empty.exid)} .project-cameras`)).toBe('0 cameras');
      expect(await page.getAttribute(`${card(harbour.exid)} a`, 'href')).toBe(`#/projects/${harbour.exid}`);
      await checkPage(page, errors, AREA, '1-projects', viewport);

      // Keyboard alone: the button, then the form (the name field has the focus), a missing name, a name.
      await tabTo(page, '.screen-head .actions button');
      await page.keyboard.press('Enter');
      await page.waitForSelector('#project-name');
      expect(await page.evaluate('document.activeElement.id')).toBe('project-name');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.textContent('#project-name-error')).toContain('Give the project a name');
      expect(await page.getAttribute('#project-name', 'aria-invalid')).toBe('true');
      await checkPage(page, errors, AREA, '2-new-project-invalid', viewport);
      const zone = await page.inputValue('#project-timezone');
      const name = `Quay Wall ${viewport}`;
      await page.keyboard.type(name);
      await page.keyboard.press('Enter');
      await page.waitForSelector(`h1:text("${name}")`);
      const made = (await projectsOf(ada)).find((p) => p.name === name);
      expect(made).toMatchObject({ role: 'owner', timezone: zone, status: 'In Progress' });
      expect(await page.evaluate('location.hash')).toBe(`#/projects/${made!.exid}`);
      // An owner of a new project is offered its first camera.
      await page.waitForSelector('a.button[href$="/cameras/new"]');
      await checkPage(page, errors, AREA, '3-new-project-made', viewport);
      expect(errors).toEqual([]);
    });
  }

  for (const viewport of ['desktop', 'phone'] as ViewportName[]) {
    it(`lets an owner change the project's name, time zone and status (${viewport})`, async () => {
      const p = await web.tp.project(ada, `Depot ${viewport}`);
      const { page, errors } = await web.open(ada, viewport, `#/projects/${p.exid}`);
      await page.waitForSelector('.tabs');
      await tabTo(page, '.tabs a[href$="/settings"]');
      await page.keyboard.press('Enter');
      await page.waitForSelector('#project-name');
      expect(await page.title()).toBe(`Settings · Depot ${viewport} · Overlook`);
      expect(await page.textContent('.tabs a[aria-current=page]')).toBe('Settings');
      await page.fill('#project-name', '   ');
      await page.click('form.setup-form button[type=submit]');
      await expect.poll(() => page.textContent('#project-name-error')).toContain('The project needs a name');
      await checkPage(page, errors, AREA, '4-settings-invalid', viewport);

      await page.fill('#project-name', `Depot North ${viewport}`);
      await page.selectOption('#project-timezone', 'Europe/Dublin');
      await page.selectOption('#project-status', 'Completed');
      await tabTo(page, 'form.setup-form button[type=submit]');
      await page.keyboard.press('Enter');
      await expect.poll(async () => (await project(p.exid)).name).toBe(`Depot North ${viewport}`);
      expect(await project(p.exid)).toMatchObject({ timezone: 'Europe/Dublin', status: 'Completed' });
      await expect.poll(() => page.textContent('h1')).toBe(`Settings of Depot North ${viewport}`);
      await expect.poll(() => page.textContent('.saved')).toBe('Saved.');
      expect(await page.locator('#project-name-error').count()).toBe(0);
      await checkPage(page, errors, AREA, '5-settings-saved', viewport);
      expect(errors).toEqual([]);
    });
  }

  for (const viewport of ['desktop', 'phone'] as ViewportName[]) {
    it(`shows a viewer the settings read-only (${viewport})`, async () => {
      const vic = await web.tp.person('vic');
      await web.tp.addMember(ada, harbour.exid, vic, 'viewer');
      const { page, errors } = await web.open(vic, viewport, `#/projects/${harbour.exid}/settings`);
      await page.waitForSelector('dl.settings-readonly');
      expect(await page.textContent('dl.settings-readonly')).toContain('Harbour Tower');
      expect(await page.textContent('main')).toContain('Your role here is viewer');
      expect(await page.locator('form').count()).toBe(0);
      await checkPage(page, errors, AREA, '6-settings-read-only', viewport);
      expect(errors).toEqual([]);
    });
  }
});
