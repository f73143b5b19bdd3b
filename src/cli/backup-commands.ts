// `overlook backup --to FILE` and `overlook restore --from FILE` (docs/deploy.md, Backup and restore).
// A refused input (missing file, data dir not empty, damaged backup) says why on stderr and exits 2.
import type { Command } from 'commander';
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

export function registerBackupCommands(program: Command): void {
  program
    .command('backup')
    .description(
      'Write the database, key files and stored objects (files or S3 bucket) into one file (tar, mode 0600), with a manifest of checksums; works while the platform serves',
    )
    .requiredOption('--to <file>', 'the backup file to write (must not exist)')
    .option('--data-dir <dir>', 'data directory (default ./data)')
    .action(async (opts) =>
      refusalsExit2(async () => {
        const summary = await createBackup(platformConfig(opts), opts.to);
        for (const note of summary.notes) process.stderr.write(`overlook: note: ${note}\n`);
        process.stdout.write(`${JSON.stringify(summary)}\n`);
      }),
    );

  program
    .command('restore')
    .description(
      'Restore a backup into an empty data dir (and, with DATABASE_URL, an empty PostgreSQL database; with OVERLOOK_STORAGE=s3, an empty bucket), after checking every checksum',
    )
    .requiredOption('--from <file>', 'the backup file')
    .option('--data-dir <dir>', 'data directory to restore into, missing or empty (default ./data)')
    .action(async (opts) =>
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
      }),
    );
}
