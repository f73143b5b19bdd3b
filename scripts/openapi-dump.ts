// Writes the main API's and the recorder's OpenAPI documents, as the running services serve them, to a
// folder: `node --import tsx scripts/openapi-dump.ts OUT_DIR`. `scripts/openapi-compare` runs it on two
// revisions to show that a refactoring left both documents byte-identical.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { platformConfig } from '../src/lib/config.js';
import { openDb } from '../src/lib/db/index.js';
import { migrateToLatest } from '../src/lib/db/migrate.js';
import type { PlatformDatabase } from '../src/platform/database.js';
import { PLATFORM_MIGRATIONS } from '../src/platform/db/platform-migrations.js';
import { buildPlatformApp } from '../src/platform/app.js';
import { buildRecorderApp } from '../src/recorder/app.js';
import { recorderConfig } from '../src/recorder/config.js';
import { openRecorderDb } from '../src/recorder/db/recorder-db.js';

const out = process.argv[2];
if (!out) throw new Error('usage: openapi-dump.ts OUT_DIR');
mkdirSync(out, { recursive: true });
const dataDir = mkdtempSync(join(tmpdir(), 'overlook-openapi-'));
try {
  const env = { OVERLOOK_RECORDING_LOOP: '0', OVERLOOK_MEDIA_JOBS: '0' };
  const db = openDb<PlatformDatabase>({ sqliteFile: join(dataDir, 'overlook.sqlite') });
  await migrateToLatest(db, PLATFORM_MIGRATIONS);
  const platform = await buildPlatformApp({ config: platformConfig({ dataDir }, env), db, logger: false });
  await platform.ready();
  writeFileSync(join(out, 'platform.json'), (await platform.inject({ url: '/v2/openapi.json' })).body);
  await platform.close();
  await db.close();

  mkdirSync(join(dataDir, 'recorder'));
  const rdb = await openRecorderDb(join(dataDir, 'recorder'));
  const recorder = await buildRecorderApp({ config: recorderConfig({ dataDir: join(dataDir, 'recorder') }, {}), db: rdb, logger: false });
  await recorder.ready();
  writeFileSync(join(out, 'recorder.json'), (await recorder.inject({ url: '/api/openapi.json' })).body);
  await recorder.close();
  await rdb.close();
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
