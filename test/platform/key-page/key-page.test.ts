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

  it('is served with a strict content security policy', async () => {
    const res = await tp.app.inject({ method: 'GET', url: '/keys/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect((await tp.app.inject({ method: 'GET', url: '/keys/../package.json' })).statusCode).toBe(404);
  });
});
