// Video walls in a real browser on a real platform, at desktop and phone size: an owner creates a wall
// with the keyboard alone (a grid of tiles, a camera chosen per tile) and the API returns it as saved;
// changes its layout and cameras; deletes it after a confirm that says what goes; a missing name is
// said beside the field; a viewer sees the walls without setup actions. Screenshots in
// test-output/web-app/video-walls/.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Person } from '../../helpers/platform.js';
import { startWebApp, type ViewportName, type WebApp } from './harness.js';
import { checkPage, tabTo } from './setup-helpers.js';

const AREA = 'video-walls';

let web: WebApp;
let ada: Person;
let project: { exid: string; name: string };
let gate: { exid: string; name: string };
let crane: { exid: string; name: string };

beforeAll(async () => {
  web = await startWebApp();
  ada = await web.tp.person('ada');
  project = await web.tp.project(ada, 'Harbour Tower');
  gate = await web.tp.camera(ada, project.exid, 'Gate camera');
  crane = await web.tp.camera(ada, project.exid, 'Crane camera');
}, 60_000);
afterAll(async () => {
  await web?.close();
});

interface Wall {
  id: string;
  name: string;
  rows: number;
  columns: number;
  tiles: { row: number; column: number; camera_exid: string }[];
}
const walls = async (who: Person = ada) =>
  (await web.tp.app.inject({ method: 'GET', url: `/v2/video-walls?project_exid=${project.exid}`, headers: who.auth })).json() as Wall[];
const item = (page: Page, name: string) => page.locator('li.wall-item', { has: page.locator(`h3.wall-name a:text-is("${name}")`) });
const byCell = (w: Wall | undefined) => [...(w?.tiles ?? [])].sort((a, b) => a.row - b.row || a.column - b.column).map((t) => [t.row, t.column, t.camera_exid]);

/** Chooses `label` in the focused select by typing its first letters, as a keyboard user does. */
async function choose(page: Page, id: string, label: string) {
  await tabTo(page, `#${id}`);
  await page.keyboard.type(label.slice(0, 4));
  await expect.poll(() => page.evaluate(`document.getElementById(${JSON.stringify(id)}).selectedOptions[0].textContent`)).toBe(label);
}

describe('video walls', () => {
  for (const viewport of ['desktop', 'phone'] as ViewportName[]) {
    it(`creates, changes and deletes a wall, by keyboard alone (${viewport})`, async () => {
      const name = `Site office ${viewport}`;
      const { page, errors } = await web.open(ada, viewport, `#/projects/${project.exid}`);
      await page.waitForSelector('.tabs');
      await tabTo(page, '.tabs a[href$="/walls"]');
      await page.keyboard.press('Enter');
      await page.waitForSelector('h1:text("Video walls of Harbour Tower")');
      expect(await page.textContent('.tabs a[aria-current=page]')).toBe('Video walls');
      await tabTo(page, '.screen-head .actions button');
      await page.keyboard.press('Enter');
      await page.waitForSelector('#wall-name');
      expect(await page.evaluate('document.activeElement.id')).toBe('wall-name');
      // Nothing typed: said beside the name.
      await page.keyboard.press('Enter');
      await expect.poll(() => page.textContent('#wall-name-error')).toContain('Give the wall a name');
      expect(await page.getAttribute('#wall-name', 'aria-invalid')).toBe('true');
      await checkPage(page, errors, AREA, '1-new-invalid', viewport);

      await page.keyboard.type(name);
      // Corrected: the message beside the name goes.
      expect(await page.locator('#wall-name-error').count()).toBe(0);
      // 2 × 2 by default: the gate top left, the crane bottom right.
      await choose(page, 'tile-0-0', 'Gate camera');
      await choose(page, 'tile-1-1', 'Crane camera');
      await checkPage(page, errors, AREA, '2-new-filled', viewport);
      await tabTo(page, '.wall-form button[type=submit]');
      await page.keyboard.press('Enter');
      await item(page, name).waitFor();
      expect(await page.textContent('.setup-status')).toBe(`${name} is created.`);
      let saved = (await walls()).find((w) => w.name === name);
      expect(saved).toMatchObject({ rows: 2, columns: 2 });
      // Its name opens the wall's live view.
      expect(await item(page, name).locator('h3 a').getAttribute('href')).toBe(`#/walls/${saved!.id}`);
      expect(byCell(saved)).toEqual([
        [0, 0, gate.exid],
        [1, 1, crane.exid],
      ]);
      expect(await item(page, name).textContent()).toContain('2 × 2 tiles, 2 cameras');
      await checkPage(page, errors, AREA, '3-created', viewport);

      // Edit: one row of three, the crane in the middle, the gate kept.
      await tabTo(page, `button[aria-label="Edit ${name}"]`);
      await page.keyboard.press('Enter');
      await page.waitForSelector('#wall-rows');
      await choose(page, 'wall-rows', '1');
      await choose(page, 'wall-columns', '3');
      expect(await page.textContent('.wall-layout [role=status]')).toContain('1 camera outside the smaller grid will be left off');
      await choose(page, 'tile-0-1', 'Crane camera');
      await checkPage(page, errors, AREA, '4-edit', viewport);
      await tabTo(page, '.wall-form button[type=submit]');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.textContent('.setup-status')).toBe(`${name} is saved.`);
      saved = (await walls()).find((w) => w.name === name);
      expect(saved).toMatchObject({ rows: 1, columns: 3 });
      expect(byCell(saved)).toEqual([
        [0, 0, gate.exid],
        [0, 1, crane.exid],
      ]);
      const one = await web.tp.app.inject({ method: 'GET', url: `/v2/video-walls/${saved!.id}`, headers: ada.auth });
      expect(one.json().tiles).toHaveLength(2);

      // Delete: the confirm says what goes; Cancel first has the focus.
      await tabTo(page, `button[aria-label="Delete ${name}"]`);
      await page.keyboard.press('Enter');
      const dialog = page.locator('dialog.confirm-dialog[open]');
      await dialog.waitFor();
      expect(await dialog.textContent()).toContain('the cameras and their recordings stay');
      expect(await page.evaluate('document.activeElement.textContent')).toBe('Keep it');
      await checkPage(page, errors, AREA, '5-delete-confirm', viewport);
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await expect.poll(() => item(page, name).count()).toBe(0);
      expect((await walls()).some((w) => w.name === name)).toBe(false);
      expect((await web.tp.app.inject({ method: 'GET', url: `/v2/video-walls/${saved!.id}`, headers: ada.auth })).statusCode).toBe(404);
      expect(errors).toEqual([]);
    });
  }

  for (const viewport of ['desktop', 'phone'] as ViewportName[]) {
    it(`shows a viewer the walls without setup actions (${viewport})`, async () => {
      const res = await web.tp.app.inject({
        method: 'POST',
        url: '/v2/video-walls',
        headers: ada.auth,
        payload: { project_exid: project.exid, name: `Lobby ${viewport}`, rows: 1, columns: 2, tiles: [{ row: 0, column: 0, camera_exid: gate.exid }] },
      });
      expect(res.statusCode).toBe(201);
      const vic = await web.tp.person('vic');
      await web.tp.addMember(ada, project.exid, vic, 'viewer');
      const { page, errors } = await web.open(vic, viewport, `#/projects/${project.exid}/walls`);
      await item(page, `Lobby ${viewport}`).waitFor();
      expect(await item(page, `Lobby ${viewport}`).textContent()).toContain('Gate camera');
      expect(
        await page
          .locator('button')
          .filter({ hasText: /New video wall|Edit|Delete/ })
          .count(),
      ).toBe(0);
      expect(await page.textContent('main')).toContain('Your role here is viewer');
      await checkPage(page, errors, AREA, '6-viewer', viewport);
      expect(errors).toEqual([]);
    });
  }
});
