// Recorder commands: `overlook recorder serve`, `users create`, `link` and `unlink` (README.md).
import type { Command } from 'commander';
import { ApiError } from '../lib/errors.js';
import { serveUntilSignalled } from '../lib/process/serve-until-signalled.js';
import { recorderConfig } from './config.js';
import { openRecorderDb } from './db/recorder-db.js';
import { startRecorder } from './server.js';
import { CacheRegistry } from '../lib/cache/index.js';
import { RecorderUsers } from './users/users-service.js';
import { linkCommands } from './link/cli.js';

export function registerRecorderCommands(program: Command): void {
  const recorder = program.command('recorder').description('On-device recorder (see docs/recorder.md)');
  recorder
    .command('serve')
    .description('Run the recorder API (/api) and record its devices')
    .option('--host <host>', 'address to listen on (default 127.0.0.1, or OVERLOOK_HOST)')
    .option('--port <port>', 'port to listen on (default 4000, or OVERLOOK_RECORDER_PORT)')
    .option('--data-dir <dir>', 'data directory (default ./data, or OVERLOOK_DATA_DIR); the recorder keeps its files in <dir>/recorder')
    .action(async (opts) => {
      const running = await startRecorder(opts);
      process.stdout.write(`overlook: recorder listening on ${running.url} (API reference ${running.url}/api/docs)\n`);
      serveUntilSignalled(running.close);
    });

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
      const config = recorderConfig(opts);
      const db = await openRecorderDb(config.dataDir);
      try {
        const user = await new RecorderUsers(db, new CacheRegistry()).create({ email: opts.email, password: opts.password, role: opts.role });
        process.stdout.write(JSON.stringify(user) + '\n');
      } catch (err) {
        if (err instanceof ApiError) {
          process.stderr.write(`overlook: ${err.message}\n`);
          process.exitCode = err.code === 'CONFLICT' ? 3 : 2;
        } else throw err;
      } finally {
        await db.close();
      }
    });
}
