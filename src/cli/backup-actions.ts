// What `overlook backup` and `overlook restore` do (backup-commands.ts registers them). A refused input
// (missing file, data dir not empty, damaged backup) says why on stderr and exits 2.
import { dataDirPath, platformConfig, processEnv, storageConfigOf } from '../lib/config.js';
import { BackupRefused, createBackup, restoreBackup } from '../platform/backup/index.js';
import { PLATFORM_MIGRATIONS } from '../platform/db/platform-migrations.js';

async function refusalsExit2(run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (err) {
    if (!(err instanceof BackupRefused)) throw err;
    process.stderr.write(`overlook: ${err.message}\n`);
    process.exitCode = 2;
  }
}

export const backup = (opts: { to: string; dataDir?: string }) =>
  refusalsExit2(async () => {
    const summary = await createBackup(platformConfig(opts), opts.to);
    for (const note of summary.notes) process.stderr.write(`overlook: note: ${note}\n`);
    process.stdout.write(`${JSON.stringify(summary)}\n`);
  });

export const restore = (opts: { from: string; dataDir?: string }) =>
  refusalsExit2(async () => {
    const env = processEnv();
    const summary = await restoreBackup({
      from: opts.from,
      dataDir: dataDirPath(opts, env),
      databaseUrl: env.DATABASE_URL || undefined,
      storage: storageConfigOf(env),
      knownMigrations: Object.keys(PLATFORM_MIGRATIONS),
    });
    for (const note of summary.notes) process.stderr.write(`overlook: note: ${note}\n`);
    process.stdout.write(`${JSON.stringify(summary)}\n`);
  });
