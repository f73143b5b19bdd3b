// What `overlook recorder serve` and `recorder users create` do (cli.ts defines them), loaded only when
// one of them runs.
import { ApiError } from '../lib/errors.js';
import { serveUntilSignalled } from '../lib/process/serve-until-signalled.js';
import { recorderConfig } from './config.js';
import { openRecorderDb } from './db/recorder-db.js';
import { startRecorder } from './server.js';
import { CacheRegistry } from '../lib/cache/index.js';
import { RecorderUsers } from './users/users-service.js';

export async function serveAction(opts: { host?: string; port?: string; dataDir?: string }): Promise<void> {
  const running = await startRecorder(opts);
  process.stdout.write(`overlook: recorder listening on ${running.url} (API reference ${running.url}/api/docs)\n`);
  serveUntilSignalled(running.close);
}

export async function createUserAction(opts: { email: string; password: string; role: 'admin' | 'user'; dataDir?: string }): Promise<void> {
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
}
