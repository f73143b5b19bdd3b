// Checks any browser test may make of a page as it is now: axe-core's serious and critical
// accessibility violations, and how far the page overflows sideways. Each page that ran axe (or was
// screenshotted) is remembered: both set inline styles, which a strict Content-Security-Policy refuses
// and Chromium logs as an error, so `isToolStyleRefusal` tells those log lines from the page's own.
// Code that runs in the page is passed as strings: the suite is type-checked without the DOM's types.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const STYLE_REFUSAL = /Applying inline style violates the following Content Security Policy/;
const touched = new WeakSet<Page>();

/** Marks a page a tool has set inline styles on (axe, a full-page screenshot). */
export function toolTouched(page: Page): void {
  touched.add(page);
}

/** A console line that is a tool's inline style refused by the page's policy, not the page's fault. */
export function isToolStyleRefusal(page: Page, text: string): boolean {
  return touched.has(page) && STYLE_REFUSAL.test(text);
}

/** axe-core's serious and critical violations on the page as it is now ([] when none). */
export async function seriousA11yViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, so the page's own content security policy does not apply.
  touched.add(page);
  // axe-core is half a megabyte of script: evaluated once per document, not once per check.
  if (!(await page.evaluate("typeof window.axe === 'object'"))) await page.evaluate(AXE);
  return (await page.evaluate(
    `axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id + ': ' + v.help + ' (' + v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ') + ')'))`,
  )) as string[];
}

/** How far the page is wider than the viewport, in CSS pixels (0 when nothing overflows sideways). */
export async function horizontalOverflow(page: Page): Promise<number> {
  return (await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')) as number;
}
