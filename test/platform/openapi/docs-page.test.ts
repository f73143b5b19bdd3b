// The API reference pages (/docs on the main API, /api/docs on the recorder) in a real browser: they
// carry Overlook's name, list the operations, and load everything from the server itself (the page must
// work on a machine without internet access, and tells no third party who reads it). Screenshots go to
// test-output/docs-page/.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type TestBrowser } from '../../helpers/browser.js';
import { buildTestPlatform, type TestPlatform } from '../../helpers/platform.js';
import { buildTestRecorder, type TestRecorder } from '../../helpers/recorder.js';

const SHOTS = join(import.meta.dirname, '..', '..', '..', 'test-output', 'docs-page');
let tp: TestPlatform;
let r: TestRecorder;
let browser: TestBrowser;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  tp = await buildTestPlatform();
  r = await buildTestRecorder();
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await tp?.close();
  await r?.close();
});

const pages = [
  {
    name: 'main API',
    app: () => tp.app,
    path: '/docs',
    title: 'Overlook main API reference',
    heading: 'Overlook main API',
    // Summaries of operations under the first tags, shown as the page opens.
    operations: ['Whether the server accepts requests', 'The public keys that verify platform JWTs'],
    tags: ['auth', 'projects', 'cameras', 'api-keys'],
  },
  {
    name: 'recorder',
    app: () => r.app,
    path: '/api/docs',
    title: 'Overlook recorder API reference',
    heading: 'Overlook recorder API',
    operations: [] as string[],
    tags: ['users', 'devices'],
  },
];

describe.each(pages)('the $name reference page', ({ name, app, path, title, heading, operations, tags }) => {
  it('renders the Overlook-named reference with its operations, without a request leaving the server', async () => {
    const base = await (app() as FastifyInstance).listen({ host: '127.0.0.1', port: 0 });
    const context = await browser.newContext({ width: 1280, height: 900 });
    const page = await context.newPage();
    const requested: string[] = [];
    const violations: string[] = [];
    page.on('request', (req) => requested.push(req.url()));
    page.on('console', (msg) => {
      if (/Content Security Policy/i.test(msg.text())) violations.push(msg.text());
    });
    try {
      const answer = await page.goto(base + path);
      expect(answer?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
      await expect.poll(() => page.title(), { timeout: 60_000 }).toBe(title);
      await page.getByRole('heading', { name: heading, exact: true }).first().waitFor({ state: 'visible', timeout: 60_000 });
      for (const tag of tags) await page.getByText(tag, { exact: true }).first().waitFor({ state: 'visible', timeout: 30_000 });
      for (const summary of operations) await page.getByText(summary, { exact: true }).first().waitFor({ state: 'visible', timeout: 30_000 });
      // Opening a tag lists its operations (the first one of the recorder's users tag, for instance).
      if (name === 'recorder') {
        await page.getByText('users', { exact: true }).first().click();
        await page.getByText('The recorder’s users', { exact: true }).first().waitFor({ state: 'visible', timeout: 30_000 });
      }
      await page.screenshot({ path: join(SHOTS, `${name.replace(/ /g, '-')}.png`) });
      // Overlook's name, not the framework's or another product's, in the text a reader sees.
      // biome-ignore lint/performance/useDomNodeTextContent: textContent would also read the page's inline script.
      expect(await page.locator('body').innerText()).not.toMatch(/swagger|fastify/i);
      const outside = requested.filter((u) => !u.startsWith(`${base}/`) && !u.startsWith('blob:') && !u.startsWith('data:'));
      expect(outside).toEqual([]);
      expect(requested).toContain(`${base}${path}/js/scalar.js`);
      expect(violations).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
