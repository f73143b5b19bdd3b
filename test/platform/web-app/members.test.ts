// The members screen in a real browser, at desktop and phone size: an owner adds a person with an
// account (who can then reach the project), adds an unknown e-mail (an invitation shows and can be
// cancelled), changes a role and removes a member after a confirm dialog that says what they lose,
// partly by keyboard alone; a viewer sees the list read-only. Every state is checked with axe-core, for
// sideways overflow and page errors, and screenshotted to test-output/web-app/members/.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Person } from '../../helpers/platform.js';
import { horizontalOverflow, seriousA11yViolations, shot, startWebApp, type ViewportName, type WebApp } from './harness.js';

let web: WebApp;
let ada: Person;
let project: { exid: string; name: string };

beforeAll(async () => {
  web = await startWebApp();
  ada = await web.tp.person('ada');
  project = await web.tp.project(ada, 'Harbour Tower');
}, 60_000);
afterAll(async () => {
  await web?.close();
});

const path = () => `#/projects/${project.exid}/members`;
const row = (page: Page, email: string) => page.locator(`tr[data-email="${email}"]`);
const inject = (method: 'GET' | 'POST', url: string, who: Person) => web.tp.app.inject({ method, url, headers: who.auth });
const memberRole = async (email: string) =>
  ((await inject('GET', `/v2/projects/${project.exid}/members`, ada)).json() as { email: string; role: string }[]).find((m) => m.email === email)?.role;

/** No page error so far, no serious accessibility violation, nothing overflowing sideways; a screenshot. */
async function checkPage(page: Page, errors: string[], name: string, viewport: ViewportName) {
  expect(errors).toEqual([]);
  expect(await seriousA11yViolations(page)).toEqual([]);
  expect(await horizontalOverflow(page)).toBe(0);
  await shot(page, 'members', name, viewport);
  // axe-core's probes and the screenshot's caret-hiding set inline styles, which the app's content
  // security policy refuses and reports as console errors: those are the tools', not the app's.
  errors.splice(0);
}

describe('the members screen', () => {
  for (const viewport of ['desktop', 'phone'] as ViewportName[]) {
    it(`lets an owner add, invite, change roles and remove (${viewport})`, async () => {
      const [bob, dave, eve] = [await web.tp.person('bob'), await web.tp.person('dave'), await web.tp.person('eve')];
      await web.tp.addMember(ada, project.exid, dave, 'editor');
      await web.tp.addMember(ada, project.exid, eve, 'viewer');
      const stranger = `newcomer-${viewport}@example.com`;

      const { page, errors } = await web.open(ada, viewport, path());
      await row(page, eve.email).waitFor();
      expect(await page.title()).toBe('Members · Harbour Tower · Overlook');
      expect(await page.getAttribute('.tabs a[aria-current=page]', 'href')).toBe(path());
      expect(await row(page, ada.email).textContent()).toContain('owner');
      await checkPage(page, errors, '1-list', viewport);
      // On the phone each row is a card, and still a table of rows and cells to the accessibility tree.
      const cdp = await page.context().newCDPSession(page);
      const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: { role?: { value: string } }[] };
      const roles = new Set(nodes.map((n) => n.role?.value));
      for (const role of ['table', 'columnheader', 'row', 'rowheader', 'cell']) expect(roles).toContain(role);

      // Nothing typed: said next to the field, and the field is marked invalid.
      await page.click('.members-add button[type=submit]');
      await expect.poll(() => page.textContent('#member-email-error')).toContain('Enter the e-mail');
      expect(await page.getAttribute('#member-email', 'aria-invalid')).toBe('true');
      await page.fill('#member-email', 'not an address');
      await page.click('.members-add button[type=submit]');
      await expect.poll(() => page.textContent('#member-email-error')).toContain('not an e-mail address');
      await checkPage(page, errors, '2-add-invalid', viewport);

      // A person with an account joins at once and can reach the project.
      await page.fill('#member-email', bob.email);
      await page.selectOption('#member-role', 'editor');
      await page.click('.members-add button[type=submit]');
      await expect.poll(() => page.textContent('.members-status')).toContain(`${bob.email} is now a member (editor)`);
      await row(page, bob.email).waitFor();
      const bobsProjects = (await inject('GET', '/v2/projects', bob)).json() as { exid: string }[];
      expect(bobsProjects.map((p) => p.exid)).toContain(project.exid);
      expect((await inject('GET', `/v2/projects/${project.exid}`, bob)).json().role).toBe('editor');

      // An e-mail without an account is invited.
      await page.fill('#member-email', stranger);
      await page.click('.members-add button[type=submit]');
      await expect.poll(() => page.textContent('.members-status')).toContain('has no account yet');
      await row(page, stranger).waitFor();
      expect(await row(page, stranger).textContent()).toContain('editor');
      const invited = (await inject('GET', `/v2/projects/${project.exid}/invitations`, ada)).json() as { email: string }[];
      expect(invited.map((i) => i.email)).toContain(stranger);
      await checkPage(page, errors, '3-added-and-invited', viewport);

      // Changing a role: the select alone changes nothing; Save does.
      await page.selectOption(`#role-${dave.id}`, 'admin');
      expect(await memberRole(dave.email)).toBe('editor');
      await row(page, dave.email).locator('button[type=submit]').click();
      await expect.poll(() => memberRole(dave.email)).toBe('admin');
      await expect.poll(() => page.textContent('.members-status')).toContain('is now admin');

      // Removing says what the person loses, and Cancel keeps them.
      await row(page, eve.email)
        .getByRole('button', { name: /^Remove/ })
        .click();
      const dialog = page.locator('dialog.confirm-dialog[open]');
      await dialog.waitFor();
      expect(await dialog.textContent()).toContain('see the project, its cameras');
      expect(await dialog.textContent()).toContain('API keys stop reaching this project');
      await checkPage(page, errors, '4-remove-confirm', viewport);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect.poll(() => page.locator('dialog.confirm-dialog[open]').count()).toBe(0);
      expect(await memberRole(eve.email)).toBe('viewer');
      await row(page, eve.email)
        .getByRole('button', { name: /^Remove/ })
        .click();
      await page.locator('dialog.confirm-dialog[open]').getByRole('button', { name: 'Remove member' }).click();
      await expect.poll(() => row(page, eve.email).count()).toBe(0);
      expect(await memberRole(eve.email)).toBeUndefined();
      expect((await inject('GET', `/v2/projects/${project.exid}`, eve)).statusCode).toBe(404);

      // Cancelling the invitation.
      await row(page, stranger)
        .getByRole('button', { name: /^Cancel invitation for/ })
        .click();
      await page.locator('dialog.confirm-dialog[open]').getByRole('button', { name: 'Cancel invitation' }).click();
      await expect.poll(() => row(page, stranger).count()).toBe(0);
      expect(((await inject('GET', `/v2/projects/${project.exid}/invitations`, ada)).json() as unknown[]).length).toBe(0);
      await checkPage(page, errors, '5-after-changes', viewport);
      expect(errors).toEqual([]);
    });
  }

  it('adds a member and removes one with the keyboard alone', async () => {
    const [fay, gil] = [await web.tp.person('fay'), await web.tp.person('gil')];
    await web.tp.addMember(ada, project.exid, gil, 'viewer');
    const { page, errors } = await web.open(ada, 'desktop', path());
    await row(page, gil.email).waitFor();
    await page.focus('#member-email');
    await page.keyboard.type(fay.email);
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.id')).toBe('member-role');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await row(page, fay.email).waitFor();
    expect(await memberRole(fay.email)).toBe('viewer');

    await row(page, gil.email)
      .getByRole('button', { name: /^Remove/ })
      .focus();
    await page.keyboard.press('Enter');
    await page.locator('dialog.confirm-dialog[open]').waitFor();
    // Cancel has the focus first: Enter alone never removes anyone.
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Cancel');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect.poll(() => row(page, gil.email).count()).toBe(0);
    expect(await memberRole(gil.email)).toBeUndefined();
    expect(errors).toEqual([]);
  });

  for (const viewport of ['desktop', 'phone'] as ViewportName[]) {
    it(`shows a viewer the members read-only (${viewport})`, async () => {
      const vic = await web.tp.person('vic');
      await web.tp.addMember(ada, project.exid, vic, 'viewer');
      const { page, errors } = await web.open(vic, viewport, path());
      await row(page, vic.email).waitFor();
      expect(await row(page, vic.email).textContent()).toContain('(you)');
      await page.locator('.members-readonly').waitFor();
      expect(await page.locator('select, .members-add, .members-invitations, .members-table button.danger').count()).toBe(0);
      await checkPage(page, errors, '6-read-only', viewport);
      expect(errors).toEqual([]);
    });
  }

  for (const viewport of ['desktop', 'phone'] as ViewportName[]) {
    it(`lets a member leave with the keyboard alone, after a confirm (${viewport})`, async () => {
      const lea = await web.tp.person('lea');
      await web.tp.addMember(ada, project.exid, lea, 'editor');
      const { page, errors } = await web.open(lea, viewport, path());
      const leave = page.getByRole('button', { name: 'Leave this project' });
      await leave.waitFor();
      await checkPage(page, errors, '7-leave', viewport);
      await leave.focus();
      await page.keyboard.press('Enter');
      await page.locator('dialog.confirm-dialog[open]').waitFor();
      // Staying has the focus first: Enter alone never takes anyone out.
      expect(await page.evaluate('document.activeElement.textContent')).toBe('Stay');
      await checkPage(page, errors, '8-leave-confirm', viewport);
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.evaluate('location.hash')).toBe('#/');
      expect(await memberRole(lea.email)).toBeUndefined();
      expect((await inject('GET', `/v2/projects/${project.exid}`, lea)).statusCode).toBe(404);
      expect(errors).toEqual([]);
    });
  }

  it('offers the owner no way to leave', async () => {
    const { page, errors } = await web.open(ada, 'desktop', path());
    await row(page, ada.email).waitFor();
    expect(await page.locator('.members-leave').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
