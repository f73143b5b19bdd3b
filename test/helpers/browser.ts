// A real browser for the UI tests: Debian's Chromium headless shell (or OVERLOOK_CHROMIUM) driven by
// playwright-core. The run's one Chromium (chromium-server.ts) when the project starts it, else one of
// the file's own.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium, type Download } from 'playwright-core';
import { inject } from 'vitest';

// Flags for a root user on a machine whose network is closed (see the machine notes in the README).
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// The headless shell is the build Playwright itself runs for headless tests: the same engine without
// the desktop browser's shell, at about 40 % less CPU (docs/decisions.md). The full browser
// still serves where only it is installed.
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
export const chromiumPath = () => process.env.OVERLOOK_CHROMIUM ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

export interface TestBrowser {
  browser: Browser;
  /** A fresh context (own cookies and storage) at `viewport`. */
  newContext: (viewport: { width: number; height: number }, options?: BrowserContextOptions) => Promise<BrowserContext>;
  /** Closes this file's contexts (and its own Chromium, if it launched one). */
  close: () => Promise<void>;
}

export async function launchBrowser(): Promise<TestBrowser> {
  const endpoint = inject('chromiumEndpoint');
  const browser = endpoint ? await chromium.connect(endpoint) : await chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS });
  return {
    browser,
    newContext: (viewport, options = {}) => browser.newContext({ ...options, viewport }),
    close: () => browser.close(),
  };
}

/** A local copy of a finished download (`download.path()` is not available from a shared Chromium). */
export async function downloadedFile(download: Download): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), 'overlook-download-')), download.suggestedFilename());
  await download.saveAs(file);
  return file;
}
