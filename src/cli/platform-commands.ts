// Platform commands: serve, up, migrate, users create and reset-password, keys rotate (README.md).
// What each does is in serve-actions.ts or admin-actions.ts, imported when one of them runs.
import type { Command } from 'commander';

const serving = () => import('./serve-actions.js');
const admin = () => import('./admin-actions.js');

const serveOptions = (cmd: Command) =>
  cmd
    .option('--host <host>', 'address to listen on (default 127.0.0.1, or OVERLOOK_HOST)')
    .option('--port <port>', 'port to listen on')
    .option('--data-dir <dir>', 'data directory (default ./data, or OVERLOOK_DATA_DIR)');

export function registerPlatformCommands(program: Command): void {
  serveOptions(program.command('serve').description('Run the main API (/v2), OAuth server and key-management page')).action(async (opts) => {
    await (await serving()).serve(opts);
  });

  serveOptions(program.command('up').description('Run the main API, MCP, AI and Labs in one process, with demo data on first start')).action(async (opts) => {
    await (await serving()).up(opts);
  });

  program
    .command('migrate')
    .description('Apply database migrations')
    .option('--data-dir <dir>', 'data directory (default ./data)')
    .action(async (opts) => {
      await (await admin()).migrate(opts);
    });

  const users = program.command('users').description('Manage people of the platform');
  users
    .command('create')
    .description('Create a person; prints the user as JSON')
    .requiredOption('--email <email>')
    .requiredOption('--password <password>')
    .option('--first-name <name>')
    .option('--last-name <name>')
    .option('--admin', 'make the person a platform administrator', false)
    .option('--data-dir <dir>', 'data directory (default ./data)')
    .action(async (opts) => {
      await (await admin()).createUserCommand(opts);
    });

  users
    .command('reset-password')
    .description(
      'Set a new password (the one given, or a generated one printed on stderr) and end every session of the person; prints the user as JSON. ' +
        'Works whether or not the server runs: on PostgreSQL the running nodes stop honouring the ended sessions at once; ' +
        'on SQLite a running server may honour a session it has already seen for up to 60 s',
    )
    .requiredOption('--email <email>')
    .option('--password <password>', 'the new password (default: a generated one)')
    .option('--data-dir <dir>', 'data directory (default ./data)')
    .action(async (opts) => {
      await (await admin()).resetPasswordCommand(opts);
    });

  const keys = program.command('keys').description('Manage the keys kept in the database');
  keys
    .command('rotate')
    .description('Add a new active JWT signing key; tokens signed by the older keys keep verifying until they expire')
    .option('--data-dir <dir>', 'data directory (default ./data)')
    .action(async (opts) => {
      await (await admin()).rotateKeysCommand(opts);
    });
}
