// The key-management page in a real browser (Debian's Chromium driven by playwright-core): sign in,
// create a key and copy its value once, regenerate, test, revoke, and the expired state. Screenshots
// go to test-output/key-page/. Code that runs in the page is passed as strings: the suite is type-checked
// without the DOM's types, so that no browser type leaks into the server code's checks.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type TestBrowser } from '../../helpers/browser.js';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { horizontalOverflow, seriousA11yViolations } from '../web-app/harness.js';

const SHOTS = join(import.meta.dirname, '..', '..', '..', 'test-output', 'key-page');
let tp: TestPlatform;
let url: string;
let browser: TestBrowser | undefined;
let page: Page;
let ada: Person;
let project: { exid: string; name: string };
let camera: { exid: string };

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  tp = await buildTestPlatform();
  url = await tp.app.listen({ host: '127.0.0.1', port: 0 });
  ada = await tp.person('ada');
  project = await tp.project(ada, 'Harbour Tower');
  camera = await tp.camera(ada, project.exid, 'North gate');
  browser = await launchBrowser();
  const context = await browser.newContext({ width: 1280, height: 900 });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url });
  page = await context.newPage();
});
afterAll(async () => {
  await browser?.close();
  await tp?.close();
});

const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
const row = (name: string) => page.locator('#key-table tbody tr', { has: page.locator('th', { hasText: name }) });
const withKey = (key: string) => tp.app.inject({ method: 'GET', url: `/v2/cameras/${camera.exid}`, headers: { 'x-access-key': key } });

async function confirmYes() {
  await expect.poll(() => page.evaluate('document.querySelector("#confirm-dialog").open')).toBe(true);
  await page.click('#confirm-yes');
}

describe('the key page', () => {
  it('signs in, with every field labelled', async () => {
    await page.goto(`${url}/keys`);
    expect(new URL(page.url()).pathname).toBe('/keys');
    await page.fill('#email', ada.email);
    await page.fill('#password', 'wrong password');
    await page.click('#sign-in-form button[type=submit]');
    await expect.poll(() => page.textContent('#sign-in-error')).toMatch(/./);
    await page.fill('#password', ada.password);
    await page.click('#sign-in-form button[type=submit]');
    await page.waitForSelector('#keys:not([hidden])');
    expect(await page.textContent('#who')).toContain(ada.email);
    expect(await page.isVisible('#no-keys')).toBe(true);
    // Every form control of the page has a label (accessibility).
    const unlabelled = await page.evaluate(
      '[...document.querySelectorAll("input:not([type=hidden]), select")].filter((e) => e.labels.length === 0).map((e) => e.id || e.outerHTML)',
    );
    expect(unlabelled).toEqual([]);
    await shot('1-signed-in');
  });

  it('creates a key: scopes grouped as the catalogue, the nine that open nothing marked; the value shown once and copied', async () => {
    await page.click('#new-key');
    await expect.poll(() => page.evaluate('document.activeElement?.id')).toBe('key-name');
    await page.fill('#key-name', 'nightly report');
    await page.check(`#key-projects input[value="${project.exid}"]`);
    await page.check('#key-scopes input[value="cameras:read"]');
    const legends = await page.$$eval('#key-scopes legend', (ls) => ls.map((l) => l.textContent));
    expect(legends).toEqual(['Scopes: User', 'Scopes: Projects and cameras', 'Scopes: Camera features', 'Scopes: Project features']);
    expect(await page.locator('#key-scopes .opens-nothing').count()).toBe(9);
    expect(await page.locator('#key-scopes input').count()).toBe(23);
    await shot('2-create-dialog');
    await page.click('#key-save');

    await page.waitForSelector('#reveal:not([hidden])');
    expect(await page.textContent('#reveal')).toContain('you will not see this again');
    const value = await page.inputValue('#reveal-value');
    expect(value).toMatch(/^olk_/);
    await shot('3-value-shown-once');
    await page.click('#copy');
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(value);
    expect((await withKey(value)).statusCode).toBe(200);

    await page.click('#reveal-done');
    expect(await page.isHidden('#reveal')).toBe(true);
    expect(await page.content()).not.toContain(value);
    await expect.poll(() => row('nightly report').locator('.status').textContent()).toBe('valid');

    // Used elsewhere while the page is open: coming back to the page shows it, without a reload.
    expect(await row('nightly report').locator('td[data-label="Last used"]').textContent()).toBe('never');
    await expect
      .poll(async () => {
        await page.evaluate('window.dispatchEvent(new Event("focus"))');
        return row('nightly report').locator('td[data-label="Last used"]').textContent();
      })
      .not.toBe('never');
    // Used again while the page stays in view, focus on one of the key's buttons: "Last used" follows
    // within the page's refresh, in place, and the focus stays where it was.
    const lastUsed = () => row('nightly report').locator('td[data-label="Last used"]').textContent();
    await tp.t.db.kysely.updateTable('api_keys').set({ last_used_at: '2020-01-06T09:00:00.000Z' }).where('name', '=', 'nightly report').execute();
    await expect
      .poll(async () => {
        await page.evaluate('window.dispatchEvent(new Event("focus"))');
        return lastUsed();
      })
      .toContain('2020');
    await row('nightly report').locator('button[data-action=test]').focus();
    expect((await withKey(value)).statusCode).toBe(200);
    await expect.poll(lastUsed, { timeout: 45_000, interval: 500 }).not.toContain('2020');
    expect(await page.evaluate('document.activeElement?.dataset.action')).toBe('test');
  });

  it('tests the key with the access explainer', async () => {
    await row('nightly report').locator('button[data-action=test]').click();
    await page.fill('#test-path', `/v2/cameras/${camera.exid}`);
    await page.click('#test-form button[type=submit]');
    await expect.poll(() => page.textContent('#test-result')).toContain('Allowed');
    await page.fill('#test-path', `/v2/projects/${project.exid}/members`);
    await page.click('#test-form button[type=submit]');
    await expect.poll(() => page.textContent('#test-result')).toContain('INSUFFICIENT_SCOPE');
    await shot('4-test-this-key');
    await page.keyboard.press('Escape');
    expect(await page.evaluate('document.querySelector("#test-dialog").open')).toBe(false);
  });

  it('regenerates after confirmation: a new value is shown once and the old one stops working', async () => {
    const keys = (await tp.app.inject({ method: 'GET', url: '/v2/api-keys', headers: ada.auth })).json();
    const before = keys.find((k: { name: string }) => k.name === 'nightly report');
    // Cancelling changes nothing.
    await row('nightly report').locator('button[data-action=regenerate]').click();
    await page.click('#confirm-no');
    expect(await page.isHidden('#reveal')).toBe(true);

    // The value copied when the key was created.
    const oldValue = await page.evaluate<string>('navigator.clipboard.readText()');
    await row('nightly report').locator('button[data-action=regenerate]').click();
    await confirmYes();
    await page.waitForSelector('#reveal:not([hidden])');
    const fresh = await page.inputValue('#reveal-value');
    expect(fresh).not.toBe(oldValue);
    expect((await withKey(oldValue)).statusCode).toBe(401);
    expect((await withKey(fresh)).statusCode).toBe(200);
    const after = (await tp.app.inject({ method: 'GET', url: `/v2/api-keys/${before.id}`, headers: ada.auth })).json();
    expect(after.id).toBe(before.id);
    await page.click('#reveal-done');
  });

  it('revokes after confirmation; a revoked key offers no edit and says why', async () => {
    await row('nightly report').locator('button[data-action=revoke]').click();
    await confirmYes();
    await expect.poll(() => row('nightly report').locator('.status').textContent()).toBe('revoked');
    expect(await row('nightly report').locator('button[data-action=edit]').count()).toBe(0);
    expect(await row('nightly report').locator('button[data-action=regenerate]').count()).toBe(0);
    expect(await row('nightly report').textContent()).toContain('cannot be edited');
    await shot('5-revoked');
  });

  it('edits a valid key, and shows an expired key as expired with no edit', async () => {
    const made = await tp.key(ada, { name: 'ci step', projects: [project.exid], scopes: ['projects:read'] });
    await page.reload();
    await page.waitForSelector('#keys:not([hidden])');
    await row('ci step').locator('button[data-action=edit]').click();
    expect(await page.isChecked('#key-scopes input[value="projects:read"]')).toBe(true);
    await page.fill('#key-name', 'ci step (renamed)');
    await page.check('#key-scopes input[value="camera:recordings"]');
    await page.click('#key-save');
    await expect.poll(() => row('ci step (renamed)').count()).toBe(1);
    const edited = (await tp.app.inject({ method: 'GET', url: `/v2/api-keys/${made.id}`, headers: ada.auth })).json();
    expect(edited.scopes.sort()).toEqual(['camera:recordings', 'projects:read']);

    // Limits: a rate limit and an address list, shown in the table and refilled when editing again.
    await row('ci step (renamed)').locator('button[data-action=edit]').click();
    await page.fill('#key-rate-requests', '50');
    await page.click('#key-save');
    await expect.poll(() => page.textContent('#key-error')).toContain('both');
    await page.fill('#key-rate-window', '60');
    await page.fill('#key-allowed-ips', '203.0.113.0/24\n2001:db8::/32');
    await page.click('#key-save');
    await expect.poll(() => row('ci step (renamed)').locator('.limits').textContent()).toContain('50 requests / 60 s');
    expect(await row('ci step (renamed)').locator('.limits').textContent()).toContain('203.0.113.0/24, 2001:db8::/32');
    const limited = (await tp.app.inject({ method: 'GET', url: `/v2/api-keys/${made.id}`, headers: ada.auth })).json();
    expect(limited).toMatchObject({ rate_limit: { requests: 50, window_seconds: 60 }, allowed_ips: ['203.0.113.0/24', '2001:db8::/32'] });
    const fromElsewhere = await tp.app.inject({ method: 'GET', url: '/v2/projects', headers: made.headers, remoteAddress: '198.51.100.1' });
    expect(fromElsewhere.json().code).toBe('IP_NOT_ALLOWED');
    await row('ci step (renamed)').locator('button[data-action=test]').click();
    await page.fill('#test-path', '/v2/projects');
    await page.fill('#test-ip', '198.51.100.1');
    await page.click('#test-form button[type=submit]');
    await expect.poll(() => page.textContent('#test-result')).toContain('IP_NOT_ALLOWED');
    await shot('6-limits');
    await page.click('#test-close');
    // A bad address is refused by the server, and said in the dialog.
    await row('ci step (renamed)').locator('button[data-action=edit]').click();
    expect(await page.inputValue('#key-rate-requests')).toBe('50');
    await page.fill('#key-allowed-ips', 'not-an-address');
    await page.click('#key-save');
    await expect.poll(() => page.textContent('#key-error')).toContain('allowed_ips');
    await page.fill('#key-rate-requests', '');
    await page.fill('#key-rate-window', '');
    await page.fill('#key-allowed-ips', '');
    await page.click('#key-save');
    await expect.poll(() => row('ci step (renamed)').locator('.limits').textContent()).toBe('no rate limit; from anywhere');

    // Time passes: the key's expiry is now behind us.
    await tp.t.db.kysely
      .updateTable('api_keys')
      .set({ expires_at: new Date(Date.now() - 60_000).toISOString() })
      .where('id', '=', made.id)
      .execute();
    await page.reload();
    await page.waitForSelector('#keys:not([hidden])');
    await expect.poll(() => row('ci step (renamed)').locator('.status').textContent()).toBe('expired');
    expect(await row('ci step (renamed)').locator('button[data-action=edit]').count()).toBe(0);
    expect(await row('ci step (renamed)').textContent()).toContain('expired: it cannot be edited');
    expect((await withKey(made.key)).statusCode).toBe(401);
    await shot('7-expired');
  });

  it('is phone-friendly: signed in from the app, no overflow, the create button in view, revoke and delete told apart', async () => {
    await tp.key(ada, { name: 'site tablet', projects: [project.exid], scopes: ['cameras:read'] });
    const context = await browser!.newContext({ width: 390, height: 844 });
    // Signed in to the web app in this tab: the key page shares its sessionStorage token.
    await context.addInitScript(`sessionStorage.setItem('overlook.jwt', ${JSON.stringify(ada.token)})`);
    const phone = await context.newPage();
    const phoneShot = (name: string) => phone.screenshot({ path: join(SHOTS, `${name}-phone.png`), fullPage: true });
    const inPhone = (sel: string) => phone.locator(sel);
    await phone.goto(`${url}/keys`);
    await phone.waitForSelector('#keys:not([hidden])');
    // The app's header: its brand leads back to the app, its navigation marks this page.
    expect(await phone.getAttribute('header.top a.brand', 'href')).toBe('/');
    expect(await phone.textContent('header.top a.brand')).toBe('Overlook');
    expect(await phone.textContent('header.top nav a[aria-current="page"]')).toBe('API keys');
    await expect.poll(() => inPhone('#key-table tbody tr').count()).toBeGreaterThanOrEqual(3);
    expect(await horizontalOverflow(phone)).toBe(0);
    expect(await seriousA11yViolations(phone)).toEqual([]);

    // Each row is a card on the phone, but still a table with rows and cells to the browser's accessibility tree.
    const cdp = await context.newCDPSession(phone);
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: { role?: { value: string } }[] };
    const roles = new Set(nodes.map((n) => n.role?.value));
    for (const role of ['table', 'row', 'rowheader', 'cell']) expect(roles).toContain(role);

    // Revoke and Delete say how they differ: on the page, on each button (its description) and in their confirm dialogs.
    const tablet = phone.locator('#key-table tbody tr', { has: phone.locator('th', { hasText: 'site tablet' }) });
    const description = (action: string) =>
      tablet.locator(`button[data-action=${action}]`).evaluate((b) => {
        const doc = b.ownerDocument;
        return (b.getAttribute('aria-describedby') ?? '')
          .split(' ')
          .map((id: string) => doc.getElementById(id)?.textContent ?? '')
          .join(' ');
      });
    expect(await description('revoke')).toContain('stays in this list');
    expect(await description('delete')).toContain('removes it from this list');
    await phoneShot('8-keys');
    await tablet.locator('button[data-action=revoke]').click();
    await expect.poll(() => phone.evaluate('document.querySelector("#confirm-dialog").open')).toBe(true);
    expect(await phone.textContent('#confirm-text')).toContain('stays in this list');
    expect(await phone.textContent('#confirm-yes')).toBe('Revoke key');
    await phoneShot('9-revoke-confirm');
    await phone.click('#confirm-no');
    await tablet.locator('button[data-action=delete]').click();
    await expect.poll(() => phone.evaluate('document.querySelector("#confirm-dialog").open')).toBe(true);
    expect(await phone.textContent('#confirm-text')).toContain('removed from this list');
    expect(await phone.textContent('#confirm-yes')).toBe('Delete key');
    await phone.click('#confirm-no');

    // The create dialog fits the screen and its Create key button is in view at once, over a long form.
    await phone.click('#new-key');
    await expect.poll(() => phone.evaluate('document.querySelector("#key-dialog").open')).toBe(true);
    const box = await phone.locator('#key-save').boundingBox();
    expect(box).not.toBeNull();
    expect(box!.y).toBeGreaterThanOrEqual(0);
    expect(box!.y + box!.height).toBeLessThanOrEqual(844);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    const dialogBox = await phone.locator('#key-dialog').boundingBox();
    expect(dialogBox!.height).toBeLessThanOrEqual(844);
    expect(dialogBox!.width).toBeLessThanOrEqual(390);
    expect(await horizontalOverflow(phone)).toBe(0);
    expect(await seriousA11yViolations(phone)).toEqual([]);
    await phone.screenshot({ path: join(SHOTS, '10-create-dialog-phone.png') });
    // A mistake is said beside the button, still in view however far down the form the person is.
    await phone.fill('#key-name', 'from the phone');
    await phone.fill('#key-rate-requests', '10');
    await phone.click('#key-save');
    await expect.poll(() => phone.textContent('#key-error')).toContain('both');
    const error = await phone.locator('#key-error').boundingBox();
    expect(error!.y).toBeGreaterThanOrEqual(0);
    expect(error!.y + error!.height).toBeLessThanOrEqual(844);
    await phone.screenshot({ path: join(SHOTS, '11-create-dialog-error-phone.png') });
    await phone.fill('#key-rate-requests', '');
    await phone.click('#key-save');
    await phone.waitForSelector('#reveal:not([hidden])');
    await phone.click('#reveal-done');
    await expect.poll(() => phone.locator('#key-table th', { hasText: 'from the phone' }).count()).toBe(1);
    expect(await horizontalOverflow(phone)).toBe(0);
    await context.close();
  });

  it('is served with a strict content security policy', async () => {
    const res = await tp.app.inject({ method: 'GET', url: '/keys/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect((await tp.app.inject({ method: 'GET', url: '/keys/../package.json' })).statusCode).toBe(404);
  });
});
