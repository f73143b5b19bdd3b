// docs/architecture.md's generated blocks (the plugin table and the module graphs) must be what the
// code says today: run `npm run docs:architecture` after changing a plugin's needs or an import.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DOC, render } from '../../scripts/architecture.js';

describe('docs/architecture.md', () => {
  it('its generated tables and graphs are up to date (npm run docs:architecture)', () => {
    const doc = readFileSync(DOC, 'utf8');
    expect(render(doc)).toBe(doc);
  }, 60_000);
});
