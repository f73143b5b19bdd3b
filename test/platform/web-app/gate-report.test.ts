// The gate report screen in a real browser, at desktop and phone size, wired as `overlook up` wires it:
// the AI API runs beside the platform and the platform passes the web app's `/ai/…` requests on to it
// (OVERLOOK_AI_URL). Plate reads pushed through the API for a day with known visits (a missed exit, a
// misread plate corrected through the API, vendors from the watch list) show as visits with entry,
// exit and stay, counts per hour and per vendor, unmatched reads and the correction; a range of days
// is picked with the keyboard alone; the CSV downloads with the person's token; a reversed range is
// said next to its field. Every state is checked with axe-core, for sideways overflow and page errors,
// and screenshotted to test-output/web-app/gate-report/. The pass-through itself: people only, only the
// AI API's report paths.
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAiApp } from '../../../src/ai/app.js';
import { downloadedFile } from '../../helpers/browser.js';
import { freePort } from '../../helpers/oauth-servers.js';
import type { Person } from '../../helpers/platform.js';
import { ingest, ingestionToken } from '../anpr/anpr-helpers.js';
import { horizontalOverflow, seriousA11yViolations, shot, startWebApp, type ViewportName, type WebApp } from './harness.js';

let web: WebApp;
let ai: FastifyInstance;
let ada: Person;
let project: string;

const at = (time: string, day = '2026-11-20') => `${day}T${time}:00.000Z`;

beforeAll(async () => {
  // The AI API needs the platform's address and the platform the AI API's: the platform's port is picked first.
  const port = await freePort();
  ai = await buildAiApp({ apiUrl: `http://127.0.0.1:${port}`, logger: false });
  const aiUrl = await ai.listen({ host: '127.0.0.1', port: 0 });
  web = await startWebApp({ OVERLOOK_AI_URL: aiUrl }, port);
  ada = await web.tp.person('ada');
  project = (await web.tp.project(ada, 'Depot')).exid;
  const cams = { in: (await web.tp.camera(ada, project, 'Gate in')).exid, out: (await web.tp.camera(ada, project, 'Gate out')).exid };
  for (const [cam, role] of [
    [cams.in, 'entry'],
    [cams.out, 'exit'],
  ] as const) {
    const res = await web.tp.app.inject({ method: 'PUT', url: `/v2/cameras/${cam}/anpr/gate`, headers: ada.auth, payload: { role } });
    expect(res.statusCode, res.body).toBe(200);
  }
  for (const [plate, label] of [
    ['AB12CDE', 'Concrete Co'],
    ['XY34FGH', 'Steel Ltd'],
  ]) {
    await web.tp.app.inject({ method: 'POST', url: `/v2/projects/${project}/anpr/watchlist`, headers: ada.auth, payload: { plate, label } });
  }
  const tokens = { in: (await ingestionToken(web.tp, ada, cams.in)).token, out: (await ingestionToken(web.tp, ada, cams.out)).token };
  const push = async (gate: 'in' | 'out', plate: string, time: string) =>
    (await ingest(web.tp, cams[gate], tokens[gate], { plate_number: plate, capture_time: time })).id as string;
  await push('in', 'CD12 EFG', at('23:30', '2026-11-19'));
  await push('out', 'CD12 EFG', at('00:30'));
  await push('in', 'AB12 CDE', at('07:05'));
  await push('in', 'XY34 FGH', at('07:40'));
  // Entered again before any exit: the first entry's exit was missed.
  await push('in', 'XY34 FGH', at('11:10'));
  await push('in', 'LM56 NOP', at('08:00'));
  await push('out', 'AB12 CDE', at('09:35'));
  const misread = await push('out', 'LM56 N0P', at('10:00'));
  await push('out', 'XY34 FGH', at('12:00'));
  await push('out', 'QR78 STU', at('06:30'));
  const fix = await web.tp.app.inject({
    method: 'POST',
    url: `/v2/cameras/${cams.out}/anpr/${misread}/corrections`,
    headers: ada.auth,
    payload: { plate: 'LM56NOP', note: 'O read as zero' },
  });
  expect(fix.statusCode, fix.body).toBe(201);
}, 90_000);
afterAll(async () => {
  await web?.close();
  await ai?.close();
});

const path = () => `#/projects/${project}/gate`;
const visits = (page: Page) =>
  page.locator('.gate-table:not(.gate-counts) tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => (c.textContent ?? '').trim())));
const totals = (page: Page) =>
  page
    .locator('.gate-totals div')
    .evaluateAll((ds) => Object.fromEntries(ds.map((d) => [d.querySelector('dt')?.textContent, d.querySelector('dd')?.textContent])));

async function checkPage(page: Page, errors: string[], name: string, viewport: ViewportName) {
  expect(errors).toEqual([]);
  expect(await seriousA11yViolations(page)).toEqual([]);
  expect(await horizontalOverflow(page)).toBe(0);
  await shot(page, 'gate-report', name, viewport);
  // axe-core's probes and the screenshot set inline styles, which the page's policy refuses: the tools', not the app's.
  errors.splice(0);
}

async function showDay(page: Page, day: string) {
  await page.fill('#gate-day', day);
  await page.getByRole('button', { name: 'Show report' }).click();
}

describe('the gate report screen', () => {
  for (const viewport of ['desktop', 'phone'] as const) {
    it(`shows a day's visits, counts, unmatched reads and corrections (${viewport})`, async () => {
      const { page, errors } = await web.open(ada, viewport, path());
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Gate report · Depot');
      await expect.poll(() => page.getByRole('link', { name: 'Gate report' }).getAttribute('aria-current')).toBe('page');
      await showDay(page, '2026-11-20');
      await expect.poll(() => visits(page)).toHaveLength(4);
      const rows = await visits(page);
      expect(rows.map((r) => [r[0]?.replace(/\s*\(corrected\)/, ''), r[1], r[4]])).toEqual([
        ['CD12EFG', '—', '1 h 00 min'],
        ['AB12CDE', 'Concrete Co', '2 h 30 min'],
        ['LM56NOP', '—', '2 h 00 min'],
        ['XY34FGH', 'Steel Ltd', '50 min'],
      ]);
      expect(rows[2]?.[0]).toContain('(corrected)');
      expect(await totals(page)).toEqual({
        Entries: '4',
        Exits: '5',
        Visits: '4',
        'Mean stay': '1 h 35 min',
        'Unmatched entries': '1',
        'Unmatched exits': '1',
        'On site': '0',
      });
      // Per hour: only hours with traffic; per vendor, the watch list's labels.
      const hours = await page.locator('.gate-counts').first().locator('tbody tr').allTextContents();
      expect(hours[0]).toMatch(/^00:00\s*0\s*1$/);
      await expect.poll(() => page.getByRole('rowheader', { name: 'Concrete Co' }).count()).toBe(1);
      await expect.poll(() => page.locator('#gate-unmatched-entries').textContent()).toBe('Unmatched entries (1)');
      const correction = await page.locator('.gate-list li', { hasText: 'corrected to' }).textContent();
      expect(correction).toContain('LM56N0P');
      expect(correction).toContain('LM56NOP');
      expect(correction).toContain('ada');
      await checkPage(page, errors, 'day', viewport);
    });
  }

  it('picks a range with the keyboard, refuses a reversed one beside its field, and downloads the CSV (desktop)', async () => {
    const { page, errors } = await web.open(ada, 'desktop', path());
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Gate report · Depot');
    await page.locator('input[name=gate-mode][value=day]').focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.locator('#gate-from').count()).toBe(1);
    await page.fill('#gate-from', '2026-11-21');
    await page.fill('#gate-to', '2026-11-19');
    await page.getByRole('button', { name: 'Show report' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#gate-to-error').textContent()).toBe('The last day is before the first day.');
    await expect.poll(() => page.locator('#gate-to').getAttribute('aria-invalid')).toBe('true');
    await checkPage(page, errors, 'range-refused', 'desktop');

    await page.fill('#gate-from', '2026-11-19');
    await page.fill('#gate-to', '2026-11-21');
    await page.getByRole('button', { name: 'Show report' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#gate-to-error').count()).toBe(0);
    await expect.poll(() => visits(page)).toHaveLength(4);
    await checkPage(page, errors, 'range', 'desktop');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toBe(`gate-report-${project}-2026-11-19-to-2026-11-21.csv`);
    const lines = readFileSync(await downloadedFile(download), 'utf8')
      .trim()
      .split(/\r?\n/);
    expect(lines[0]).toBe('kind,plate,vendor,entry_at,exit_at,dwell_seconds,entry_camera,exit_camera,corrected_by');
    expect(lines.filter((l) => l.startsWith('visit,'))).toHaveLength(4);
    expect(lines.some((l) => l.startsWith('visit,LM56NOP,') && l.endsWith(`,${ada.email}`))).toBe(true);
    expect(errors).toEqual([]);
  });
});

describe('the main API passes /ai/ on to the AI API', () => {
  it('for people only, and only the report paths', async () => {
    const url = `/ai/projects/${project}/gate-report/days/2026-11-20`;
    const ok = await web.tp.app.inject({ method: 'GET', url, headers: ada.auth });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().totals.visits).toBe(4);
    expect((await web.tp.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    const key = await web.tp.key(ada, { projects: [project], scopes: ['cameras:read'] });
    expect((await web.tp.app.inject({ method: 'GET', url, headers: key.headers })).json().code).toBe('ENDPOINT_CLOSED_TO_KEYS');
    // The AI API's own refusals come back as they are.
    const bad = await web.tp.app.inject({ method: 'GET', url: `/ai/projects/${project}/gate-report/days/2026-02-30`, headers: ada.auth });
    expect(bad.statusCode).toBe(400);
    const stranger = await web.tp.person('stranger');
    expect((await web.tp.app.inject({ method: 'GET', url, headers: stranger.auth })).statusCode).toBe(404);
    for (const other of ['/ai/me', '/ai//evil.example/projects/x/gate-report', '/ai/openapi.json']) {
      expect((await web.tp.app.inject({ method: 'GET', url: other, headers: ada.auth })).statusCode, other).toBe(404);
    }
  });
});
