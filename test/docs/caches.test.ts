// docs/architecture.md (Caches) lists every cache the main API and the recorder register, and the
// caches of facts that decide access (class a) all have a staleness bound.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CacheDescription } from '../../src/lib/cache/index.js';
import { servicesOf } from '../../src/platform/plugins/feature.js';
import { buildRecorderApp } from '../../src/recorder/app.js';
import { recorderConfig } from '../../src/recorder/config.js';
import { openRecorderDb } from '../../src/recorder/db/recorder-db.js';
import { buildTestPlatform } from '../helpers/platform.js';

/** The caches table of the Caches section: name and class (a or b). */
function documented(): { name: string; cls: string }[] {
  const doc = readFileSync(new URL('../../docs/architecture.md', import.meta.url), 'utf8');
  const section = doc.slice(doc.indexOf('## Caches'));
  return [...section.matchAll(/^\| `([a-z.-]+)` \| ([ab]) \|/gm)].map((m) => ({ name: m[1]!, cls: m[2]! }));
}

async function registered(): Promise<CacheDescription[]> {
  const tp = await buildTestPlatform();
  const dir = mkdtempSync(join(tmpdir(), 'overlook-caches-'));
  const db = await openRecorderDb(dir);
  const recorder = await buildRecorderApp({ config: recorderConfig({ dataDir: dir }, {}), db, logger: false });
  try {
    return [...servicesOf(tp.app).caches.describe(), ...recorder.recorder.caches.describe()];
  } finally {
    await recorder.close();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
    await tp.close();
  }
}

describe('docs/architecture.md, Caches', () => {
  it('lists every registered cache, and every cache of access facts has a ttl', async () => {
    const caches = await registered();
    const listed = documented();
    expect(listed.map((c) => c.name).sort()).toEqual(caches.map((c) => c.name).sort());
    for (const { name } of listed.filter((c) => c.cls === 'a')) expect(caches.find((c) => c.name === name)?.ttlMs, name).toBeGreaterThan(0);
  }, 60_000);
});
