// `overlook backup --to FILE` and `overlook restore --from FILE` (docs/deploy.md, Backup and restore).
// What each does is in backup-actions.ts, imported when one of them runs: `overlook` loads this file
// for every command.
import type { Command } from 'commander';

const actions = () => import('./backup-actions.js');

export function registerBackupCommands(program: Command): void {
  program
    .command('backup')
    .description(
      'Write the database, key files and stored objects (files or S3 bucket) into one file (tar, mode 0600), with a manifest of checksums; works while the platform serves',
    )
    .requiredOption('--to <file>', 'the backup file to write (must not exist)')
    .option('--data-dir <dir>', 'data directory (default ./data)')
    .action(async (opts) => (await actions()).backup(opts));

  program
    .command('restore')
    .description(
      'Restore a backup into an empty data dir (and, with DATABASE_URL, an empty PostgreSQL database; with OVERLOOK_STORAGE=s3, an empty bucket), after checking every checksum',
    )
    .requiredOption('--from <file>', 'the backup file')
    .option('--data-dir <dir>', 'data directory to restore into, missing or empty (default ./data)')
    .action(async (opts) => (await actions()).restore(opts));
}
