// The comments screen in a real browser, at desktop and phone size: a comment written, edited and
// deleted (after a confirm dialog) through the screen shows so through the API; empty text and a
// missing camera are said next to their fields; an editor changes only their own comments; a viewer
// reads. One comment is written with the keyboard alone. Every state is checked with axe-core, for
// sideways overflow and page errors, and screenshotted to test-output/web-app/comments/.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Person } from '../../helpers/platform.js';
import { horizontalOverflow, seriousA11yViolations, shot, startWebApp, type ViewportName, type WebApp } from './harness.js';

let web: WebApp;
let ada: Person;
let bob: Person;
let vic: Person;
let project: { exid: string; name: string };
let gate: { exid: string };
let crane: { exid: string };

beforeAll(async () => {
  web = await startWebApp();
  [ada, bob, vic] = [await web.tp.person('ada'), await web.tp.person('bob'), await web.tp.person('vic')];
  project = await web.tp.project(ada, 'Harbour Tower');
  gate = await web.tp.camera(ada, project.exid, 'North gate');
  crane = await web.tp.camera(ada, project.exid, 'Crane view');
  await web.tp.addMember(ada, project.exid, bob, 'editor');
  await web.tp.addMember(ada, project.exid, vic, 'viewer');
}, 60_000);
afterAll(async () => {
  await web?.close();
});

const path = () => `#/projects/${project.exid}/comments`;
type ApiComment = { id: string; content: string; camera_exid: string; creator_email: string };
const apiComments = async () =>
  (await web.tp.app.inject({ method: 'GET', url: `/v2/projects/${project.exid}/comments?page_size=500`, headers: ada.auth })).json().data as ApiComment[];
const item = (page: Page, text: string) => page.locator('.comments-item', { hasText: text });

/** No page error so far, no serious accessibility violation, nothing overflowing sideways; a screenshot. */
async function checkPage(page: Page, errors: string[], name: string, viewport: ViewportName) {
  expect(errors).toEqual([]);
  expect(await seriousA11yViolations(page)).toEqual([]);
  expect(await horizontalOverflow(page)).toBe(0);
  await shot(page, 'comments', name, viewport);
  // axe-core's probes and the screenshot's caret-hiding set inline styles, which the app's content
  // security policy refuses and reports as console errors: those are the tools', not the app's.
  errors.splice(0);
}

describe('the comments screen', () => {
  for (const viewport of ['desktop', 'phone'] as ViewportName[]) {
    it(`writes, edits and deletes a comment (${viewport})`, async () => {
      const { page, errors } = await web.open(ada, viewport, path());
      await page.locator('.comments-new').waitFor();
      expect(await page.title()).toBe('Comments · Harbour Tower · Overlook');
      expect(await page.getAttribute('.tabs a[aria-current=page]', 'href')).toBe(path());
      await checkPage(page, errors, '1-start', viewport);

      // Mistakes are said next to the field they are about.
      await page.click('.comments-new button[type=submit]');
      await expect.poll(() => page.textContent('#comment-camera-error')).toContain('Choose the camera');
      expect(await page.getAttribute('#comment-camera', 'aria-invalid')).toBe('true');
      await page.selectOption('#comment-camera', gate.exid);
      await page.click('.comments-new button[type=submit]');
      await expect.poll(() => page.textContent('#comment-content-error')).toContain('Write the comment first');
      await checkPage(page, errors, '2-invalid', viewport);

      const text = `Scaffolding delivered at the north gate (${viewport})`;
      await page.fill('#comment-content', text);
      await page.fill('#comment-moment', '2026-11-20T09:30');
      await page.click('.comments-new button[type=submit]');
      await item(page, text).waitFor();
      await expect.poll(() => page.textContent('.comments-status')).toContain('posted');
      const posted = (await apiComments()).find((c) => c.content === text)!;
      expect(posted).toMatchObject({ camera_exid: gate.exid, creator_email: ada.email });
      expect(await item(page, text).textContent()).toContain('North gate');
      await checkPage(page, errors, '3-posted', viewport);

      // Editing: empty text is refused in place; the saved text reaches the API.
      await item(page, text).getByRole('button', { name: 'Edit your comment' }).click();
      const box = page.locator(`#comment-edit-${posted.id}`);
      await expect.poll(() => page.evaluate('document.activeElement.id')).toBe(`comment-edit-${posted.id}`);
      await box.fill('  ');
      await page.locator(`[data-comment-id="${posted.id}"] button[type=submit]`).click();
      await expect.poll(() => page.textContent(`#comment-edit-${posted.id}-error`)).toContain('cannot be empty');
      await box.fill(`${text}, checked`);
      await page.locator(`[data-comment-id="${posted.id}"] button[type=submit]`).click();
      await expect.poll(async () => (await apiComments()).find((c) => c.id === posted.id)?.content).toBe(`${text}, checked`);
      await expect.poll(() => item(page, `${text}, checked`).textContent()).toContain('edited');
      await checkPage(page, errors, '4-edited', viewport);

      // Deleting asks first; Cancel keeps it.
      await item(page, text).getByRole('button', { name: 'Delete your comment' }).click();
      const dialog = page.locator('dialog.confirm-dialog[open]');
      await dialog.waitFor();
      expect(await dialog.textContent()).toContain('cannot be brought back');
      await checkPage(page, errors, '5-delete-confirm', viewport);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      expect((await apiComments()).some((c) => c.id === posted.id)).toBe(true);
      await item(page, text).getByRole('button', { name: 'Delete your comment' }).click();
      await page.locator('dialog.confirm-dialog[open]').getByRole('button', { name: 'Delete comment' }).click();
      await expect.poll(() => item(page, text).count()).toBe(0);
      expect((await apiComments()).some((c) => c.id === posted.id)).toBe(false);
      expect(errors).toEqual([]);
    });
  }

  it('writes a comment with the keyboard alone', async () => {
    const { page, errors } = await web.open(bob, 'desktop', path());
    await page.locator('.comments-new').waitFor();
    await page.focus('#comment-camera');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.inputValue('#comment-camera')).not.toBe('');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.id')).toBe('comment-moment');
    await page.focus('#comment-content');
    await page.keyboard.type('Crane lift postponed to Friday');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await item(page, 'Crane lift postponed').waitFor();
    expect((await apiComments()).find((c) => c.content === 'Crane lift postponed to Friday')?.creator_email).toBe(bob.email);
    expect(errors).toEqual([]);
  });

  for (const viewport of ['desktop', 'phone'] as ViewportName[]) {
    it(`lets an editor change only their own comments, and a viewer only read (${viewport})`, async () => {
      const post = (who: Person, content: string, camera: string) =>
        web.tp.app.inject({
          method: 'POST',
          url: `/v2/projects/${project.exid}/comments`,
          headers: who.auth,
          payload: { camera_exid: camera, timestamp: '2026-11-21T10:00:00Z', position2d: { x: 0.2, y: 0.3 }, content },
        });
      expect((await post(ada, `Ada's note on the crane (${viewport})`, crane.exid)).statusCode).toBe(201);
      expect((await post(bob, `Bob's note on the gate (${viewport})`, gate.exid)).statusCode).toBe(201);

      const asBob = await web.open(bob, viewport, path());
      await item(asBob.page, `Ada's note on the crane (${viewport})`).waitFor();
      expect(await item(asBob.page, `Ada's note on the crane (${viewport})`).locator('button').count()).toBe(0);
      expect(await item(asBob.page, `Bob's note on the gate (${viewport})`).getByRole('button', { name: 'Edit your comment' }).count()).toBe(1);
      // The camera filter narrows the list.
      await asBob.page.selectOption('#comments-camera', crane.exid);
      await expect.poll(() => item(asBob.page, `Bob's note on the gate (${viewport})`).count()).toBe(0);
      expect(await item(asBob.page, `Ada's note on the crane (${viewport})`).count()).toBe(1);
      await checkPage(asBob.page, asBob.errors, '6-editor-filtered', viewport);

      const asVic = await web.open(vic, viewport, path());
      await item(asVic.page, `Ada's note on the crane (${viewport})`).waitFor();
      expect(await asVic.page.locator('.comments-new, .comments-item button').count()).toBe(0);
      expect(await asVic.page.textContent('main')).toContain('you can read comments');
      await checkPage(asVic.page, asVic.errors, '7-viewer', viewport);
      await asBob.context.close();
      await asVic.context.close();
    });
  }
});
