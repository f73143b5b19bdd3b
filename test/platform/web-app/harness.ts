// What every browser test of the people's web app shares: a real platform on a real port, Debian's
// Chromium, a signed-in page at desktop or phone size, screenshots under test-output/web-app/<area>/,
// axe-core's accessibility check and a check that nothing on the page overflows sideways.
// Code that runs in the page is passed as strings: the suite is type-checked without the DOM's types.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { launchBrowser, type TestBrowser } from '../../helpers/browser.js';
import { isToolStyleRefusal, toolTouched } from '../../helpers/page-checks.js';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';

const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;
export type ViewportName = keyof typeof VIEWPORTS;

const OUTPUT = join(import.meta.dirname, '..', '..', '..', 'test-output', 'web-app');
export interface WebApp {
  tp: TestPlatform;
  url: string;
  browser: TestBrowser;
  /** A page in a fresh context at `viewport`, signed in as `person` (token placed as the sign-in screen would). */
  open(person: Person | null, viewport: ViewportName, path?: string): Promise<{ page: Page; context: BrowserContext; errors: string[] }>;
  close(): Promise<void>;
}

/** `port`: where the platform listens (0: any free port), for a test that starts a service calling it first. */
export async function startWebApp(env: Record<string, string> = {}, port = 0): Promise<WebApp> {
  const tp = await buildTestPlatform(env);
  const url = await tp.app.listen({ host: '127.0.0.1', port });
  const browser = await launchBrowser();
  const contexts: BrowserContext[] = [];
  return {
    tp,
    url,
    browser,
    async open(person, viewport, path = '#/') {
      const context = await browser.newContext(VIEWPORTS[viewport], { acceptDownloads: true });
      contexts.push(context);
      if (person) await context.addInitScript(`sessionStorage.setItem('overlook.jwt', ${JSON.stringify(person.token)})`);
      const page = await context.newPage();
      // Errors the page itself reports (uncaught exceptions, CSP refusals, failed loads) fail the tests that check them.
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => m.type() === 'error' && !isToolStyleRefusal(page, m.text()) && errors.push(m.text()));
      await page.goto(`${url}/${path}`);
      return { page, context, errors };
    },
    async close() {
      for (const c of contexts) await c.close().catch(() => {});
      await browser.close();
      await tp.close();
    },
  };
}

/** Saves a full-page screenshot as test-output/web-app/<area>/<name>-<viewport>.png. */
export async function shot(page: Page, area: string, name: string, viewport: ViewportName): Promise<void> {
  toolTouched(page);
  mkdirSync(join(OUTPUT, area), { recursive: true });
  await page.screenshot({ path: join(OUTPUT, area, `${name}-${viewport}.png`), fullPage: true });
}

export { horizontalOverflow, seriousA11yViolations } from '../../helpers/page-checks.js';
