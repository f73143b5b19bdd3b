// What the setup screens' browser tests share: moving by the Tab key alone to a control, and the
// check every state gets (no page error, axe clean, no sideways overflow, a screenshot).
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { horizontalOverflow, seriousA11yViolations, shot, type ViewportName } from './harness.js';

/** Presses Tab (at most `max` times) until the focused element matches the CSS `selector`; fails otherwise. */
export async function tabTo(page: Page, selector: string, max = 60): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await page.evaluate(`!!document.activeElement && document.activeElement.matches(${JSON.stringify(selector)})`)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector}`);
}

/** No page error so far, no serious accessibility violation, nothing overflowing sideways; a screenshot. */
export async function checkPage(page: Page, errors: string[], area: string, name: string, viewport: ViewportName, allowed?: RegExp): Promise<void> {
  expect(allowed ? errors.filter((e) => !allowed.test(e)) : errors).toEqual([]);
  expect(await seriousA11yViolations(page)).toEqual([]);
  expect(await horizontalOverflow(page)).toBe(0);
  await shot(page, area, name, viewport);
  // axe-core's probes and the screenshot set inline styles, which the page's policy refuses and reports.
  errors.splice(0);
}
