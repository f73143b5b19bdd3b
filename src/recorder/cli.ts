// Recorder commands: `overlook recorder serve`, `users create`, `link` and `unlink` (README.md). What
// each does is in cli-actions.ts and link/cli-actions.ts, imported when one of them runs.
import type { Command } from 'commander';
import { linkCommands } from './link/cli.js';

const actions = () => import('./cli-actions.js');

export function registerRecorderCommands(program: Command): void {
  const recorder = program.command('recorder').description('On-device recorder (see docs/recorder.md)');
  recorder
    .command('serve')
    .description('Run the recorder API (/api) and record its devices')
    .option('--host <host>', 'address to listen on (default 127.0.0.1, or OVERLOOK_HOST)')
    .option('--port <port>', 'port to listen on (default 4000, or OVERLOOK_RECORDER_PORT)')
    .option('--data-dir <dir>', 'data directory (default ./data, or OVERLOOK_DATA_DIR); the recorder keeps its files in <dir>/recorder')
    .action(async (opts) => (await actions()).serveAction(opts));

  linkCommands(recorder);

  recorder
    .command('users')
    .description('Manage the recorder’s own users')
    .command('create')
    .description('Create a recorder user; prints it as JSON')
    .requiredOption('--email <email>')
    .requiredOption('--password <password>')
    .option('--role <role>', 'admin or user (read-only)', 'user')
    .option('--data-dir <dir>', 'data directory (default ./data)')
    .action(async (opts) => {
      if (opts.role !== 'admin' && opts.role !== 'user') {
        process.stderr.write('overlook: --role must be admin or user\n');
        process.exit(2);
      }
      await (await actions()).createUserAction(opts);
    });
}
