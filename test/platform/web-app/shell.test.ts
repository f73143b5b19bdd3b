// The web app's shell in a real browser: `/` serves the app under its content security policy, a person
// signs in (a wrong password says so), the projects screen lists their projects, sign-out returns to the
// sign-in screen; at desktop and phone size, with no serious accessibility violation and nothing
// overflowing sideways; an address changed while the app starts is followed. Screenshots in
// test-output/web-app/shell/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Person } from '../../helpers/platform.js';
import { horizontalOverflow, seriousA11yViolations, shot, startWebApp, type ViewportName, type WebApp } from './harness.js';

let web: WebApp;
let ada: Person;

beforeAll(async () => {
  web = await startWebApp();
  ada = await web.tp.person('ada');
  await web.tp.project(ada, 'Harbour Tower');
  await web.tp.project(ada, 'Riverside Depot');
});
afterAll(async () => {
  await web?.close();
});

describe('the web app at /', () => {
  it('is an HTML page under a strict content security policy, out of the API reference', async () => {
    const res = await web.tp.app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toMatch(/script-src 'self' 'sha256-/);
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.body).toContain('<script type="importmap">');
    const vendor = await web.tp.app.inject({ method: 'GET', url: '/app/vendor/preact.mjs' });
    expect(vendor.statusCode).toBe(200);
    expect(vendor.headers['content-type']).toMatch(/javascript/);
    const doc = (await web.tp.app.inject({ method: 'GET', url: '/v2/openapi.json' })).json();
    expect(Object.keys(doc.paths).filter((p) => p === '/' || p.startsWith('/app') || p === '/favicon.ico')).toEqual([]);
  });

  it('answers /favicon.ico with the app’s icon', async () => {
    const res = await web.tp.app.inject({ method: 'GET', url: '/favicon.ico' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.body).toContain('<svg');
  });

  for (const viewport of ['desktop', 'phone'] as ViewportName[]) {
    it(`signs in, lists projects and signs out (${viewport})`, async () => {
      const { page, errors } = await web.open(null, viewport);
      await page.waitForSelector('form.sign-in');
      expect(await seriousA11yViolations(page)).toEqual([]);
      await shot(page, 'shell', '1-sign-in', viewport);
      await page.fill('#email', ada.email);
      await page.fill('#password', 'not the password');
      await page.click('form.sign-in button[type=submit]');
      await expect.poll(() => page.textContent('form.sign-in .error')).toMatch(/./);
      await shot(page, 'shell', '2-sign-in-refused', viewport);
      await page.fill('#password', ada.password);
      await page.click('form.sign-in button[type=submit]');
      await page.waitForSelector('ul.cards');
      expect(await page.locator('ul.cards li .project-name').allTextContents()).toEqual(expect.arrayContaining(['Harbour Tower', 'Riverside Depot']));
      expect(await page.title()).toBe('Projects · Overlook');
      expect(await seriousA11yViolations(page)).toEqual([]);
      expect(await horizontalOverflow(page)).toBe(0);
      await shot(page, 'shell', '3-projects', viewport);
      await page.click('text=Sign out');
      await page.waitForSelector('form.sign-in');
      expect(await page.evaluate("sessionStorage.getItem('overlook.jwt')")).toBeNull();
      expect(errors.filter((e) => !e.includes('401'))).toEqual([]);
    });
  }

  it('follows an address changed while the app was still starting', async () => {
    const { page, context } = await web.open(null, 'desktop', '#/forgot-password');
    // Right after the first render, before the app's effects run: a change no listener hears yet.
    await context.addInitScript(
      `document.addEventListener('DOMContentLoaded', () => { if (!sessionStorage.getItem('hopped')) { sessionStorage.setItem('hopped', '1'); location.hash = '#/reset-password/some-token'; } })`,
    );
    await page.reload();
    await page.waitForSelector('#new-password', { timeout: 10_000 });
    expect(page.url()).toContain('#/reset-password/some-token');
  });
});
