// One Chromium for the whole run (vitest globalSetup): launched here, reached by each browser test
// file through its websocket endpoint (`launchBrowser` in browser.ts), closed when the run ends.
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_ARGS, chromiumPath } from './browser.js';

declare module 'vitest' {
  export interface ProvidedContext {
    chromiumEndpoint: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await chromium.launchServer({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS });
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return () => server.close();
}
