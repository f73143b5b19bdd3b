// A real browser for the UI tests: Debian's Chromium (or OVERLOOK_CHROMIUM) driven by playwright-core.
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium } from 'playwright-core';

// Flags for a root user on a machine whose network is closed (see the machine notes in the README).
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface TestBrowser {
  browser: Browser;
  /** A fresh context (own cookies and storage) at `viewport`. */
  newContext: (viewport: { width: number; height: number }, options?: BrowserContextOptions) => Promise<BrowserContext>;
  close: () => Promise<void>;
}

export async function launchBrowser(): Promise<TestBrowser> {
  const browser = await chromium.launch({ executablePath: process.env.OVERLOOK_CHROMIUM ?? '/usr/bin/chromium', headless: true, args: ARGS });
  return {
    browser,
    newContext: (viewport, options = {}) => browser.newContext({ ...options, viewport }),
    close: () => browser.close(),
  };
}
