// The site recorders screen in a real browser (desktop): an owner links a recorder and sees the pairing
// code with the exact command for the recorder, the link listed as waiting, then revokes it after a
// confirm dialog; a viewer is told the list is for admins. Checked with axe-core and for page errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Person } from '../../helpers/platform.js';
import { seriousA11yViolations, shot, startWebApp, type WebApp } from './harness.js';

let web: WebApp;
let ada: Person;
let project: { exid: string; name: string };

beforeAll(async () => {
  web = await startWebApp();
  ada = await web.tp.person('ada');
  project = await web.tp.project(ada, 'Quay Site');
}, 60_000);
afterAll(async () => {
  await web?.close();
});

const path = () => `#/projects/${project.exid}/recorders`;

describe('the site recorders screen', () => {
  it('links a recorder, shows its code and command, and revokes it', async () => {
    const { page, errors } = await web.open(ada, 'desktop', path());
    await page.getByRole('button', { name: 'Link a recorder' }).waitFor();
    expect(await page.title()).toBe('Site recorders · Quay Site · Overlook');
    await page.getByLabel('Name').fill('Quay NVR');
    await page.getByRole('button', { name: 'Link a recorder' }).click();
    const code = page.locator('.recorders-code pre code');
    await code.waitFor();
    expect(await code.textContent()).toMatch(/^overlook recorder link --platform http:\/\/127\.0\.0\.1:\d+ --code [0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);
    const row = page.locator('.recorders-table tbody tr', { hasText: 'Quay NVR' });
    await row.getByText('Waiting for the recorder').waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await shot(page, 'site-recorders', '1-linked', 'desktop');
    errors.splice(0);

    await row.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await row.getByText('Revoked').waitFor();
    const listed = (await web.tp.app.inject({ method: 'GET', url: `/v2/projects/${project.exid}/recorder-links`, headers: ada.auth })).json();
    expect(listed.data[0].status).toBe('revoked');
    expect(errors).toEqual([]);
  });

  it('tells a viewer the screen is for admins', async () => {
    const vic = await web.tp.person('vic');
    await web.tp.addMember(ada, project.exid, vic, 'viewer');
    const { page, errors } = await web.open(vic, 'desktop', path());
    await page.locator('.error').waitFor();
    expect(await page.locator('.error').textContent()).toMatch(/admin/);
    // The browser reports the refused request itself (403); nothing else went wrong.
    expect(errors.filter((e) => !e.includes('403'))).toEqual([]);
  });
});
