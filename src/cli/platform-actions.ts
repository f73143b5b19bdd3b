// What the platform's commands do (platform-commands.ts defines them): loaded only when one of them
// runs, so `overlook --help` and the other services' commands do not load the whole platform.
import { platformConfig, processEnv, resolveAddress, type PlatformConfig } from '../lib/config.js';
import { openDb, platformDbOptions } from '../lib/db/index.js';
import type { PlatformDatabase, PlatformDb } from '../platform/database.js';
import { migratePlatform } from '../platform/db/migrate-platform.js';
import { ApiError } from '../lib/errors.js';
import { serveUntilSignalled } from '../lib/process/serve-until-signalled.js';
import { startPlatform } from '../platform/server.js';
import { createUser } from '../platform/users/create-user.js';
import { DEMO_EMAIL, seedDemoData } from '../platform/demo/seed.js';
import { demoCredentialsFile, refreshDemoCredentials, writeDemoCredentials } from './demo-credentials.js';
import { resetPassword } from './reset-password.js';
import { startCompanions } from './companions.js';
import { servicesOf } from '../platform/plugins/feature.js';
import { rotateJwtKey } from '../platform/secrets/jwt-keys.js';
import { jwtKeyRetireAfterMs, openSecretStore } from '../platform/secrets/secrets-plugin.js';

/** ` --data-dir D` when the command was given one, for a command line it prints. */
const dataDirFlag = (opts: { dataDir?: string }) => (opts.dataDir ? ` --data-dir ${JSON.stringify(opts.dataDir)}` : '');

/** The URL this process reaches a listening address at (a wildcard host is reached on loopback). */
function reachableUrl(a: { host: string; port: number }): string {
  const host = a.host === '0.0.0.0' ? '127.0.0.1' : a.host === '::' ? '::1' : a.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${a.port}`;
}

interface DataDirOpts {
  dataDir?: string;
}
interface ServeOpts extends DataDirOpts {
  host?: string;
  port?: string;
}
interface CreateUserOpts extends DataDirOpts {
  email: string;
  password: string;
  firstName?: string;
  lastName?: string;
  admin: boolean;
}
interface ResetPasswordOpts extends DataDirOpts {
  email: string;
  password?: string;
}

export async function serve(opts: ServeOpts): Promise<void> {
  const running = await startPlatform(opts);
  process.stdout.write(`overlook: main API listening on ${running.url}\n`);
  serveUntilSignalled(running.close);
}

export async function up(opts: ServeOpts): Promise<void> {
  const companions = (['mcp', 'ai', 'labs'] as const).map((service) => resolveAddress(service, { host: opts.host }));
  const env = processEnv();
  // The web app's gate report reaches this process's AI API through the main API (docs/decisions.md).
  const running = await startPlatform(opts, { OVERLOOK_AI_URL: reachableUrl(companions[1]!), ...env }, companions);
  // The other services listen on their own ports (OVERLOOK_MCP_PORT, OVERLOOK_AI_PORT, OVERLOOK_LABS_PORT)
  // and reach this main API at the address it really listens on; --port moves the main API only.
  const others = await startCompanions(running.url, { host: opts.host });
  const demo = await seedDemoData(servicesOf(running.app));
  const dataDir = running.config.dataDir;
  if (demo) {
    const kept = writeDemoCredentials(dataDir, demo.email, demo.password);
    process.stdout.write(
      `overlook: demo data created (projects ${demo.projects.join(', ')}; cameras ${demo.cameras.join(', ')})\n  sign in as ${demo.email} / ${demo.password}  (kept in ${kept})\n`,
    );
  } else {
    process.stdout.write(
      `overlook: demo sign-in: see ${demoCredentialsFile(dataDir)} (or: overlook users reset-password --email ${DEMO_EMAIL}${dataDirFlag(opts)})\n`,
    );
  }
  process.stdout.write(
    `overlook: main API  ${running.url}\n  web app   ${running.url}/  (sign in with the demo credentials)\n  keys page ${running.url}/keys\n  API docs  ${running.url}/docs\n`,
  );
  process.stdout.write(`overlook: MCP       ${others.mcp.resourceUrl}\n`);
  process.stdout.write(`overlook: AI API    ${others.ai}\n`);
  process.stdout.write(`overlook: Labs API  ${others.labs}\n`);
  serveUntilSignalled(async () => {
    await others.close();
    await running.close();
  });
}

export async function migrate(opts: DataDirOpts): Promise<void> {
  const config = platformConfig(opts);
  const db = openDb<PlatformDatabase>(platformDbOptions(config));
  try {
    const applied = await migratePlatform(config, db);
    process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'database is up to date\n');
  } finally {
    await db.close();
  }
}

export async function createUserCommand(opts: CreateUserOpts): Promise<void> {
  await withMigratedDb(platformConfig(opts), async (db) => {
    const user = await createUser(db, {
      email: opts.email,
      password: opts.password,
      firstname: opts.firstName,
      lastname: opts.lastName,
      isAdmin: opts.admin,
    });
    process.stdout.write(`${JSON.stringify(user)}\n`);
  }).catch((err) => exitOnApiError(err, { CONFLICT: 3 }));
}

export async function resetPasswordCommand(opts: ResetPasswordOpts): Promise<void> {
  const config = platformConfig(opts);
  await withMigratedDb(config, async (db) => {
    const reset = await resetPassword(db, opts.email, opts.password);
    if (reset.generated) process.stderr.write(`overlook: new password for ${reset.user.email}: ${reset.password}\n`);
    process.stderr.write(`overlook: ${reset.sessionsEnded} session(s) ended\n`);
    if (reset.user.email === DEMO_EMAIL) {
      const kept = refreshDemoCredentials(config.dataDir, reset.user.email, reset.password);
      if (kept) process.stderr.write(`overlook: ${kept} updated\n`);
    }
    process.stdout.write(`${JSON.stringify(reset.user)}\n`);
  }).catch((err) => exitOnApiError(err, { NOT_FOUND: 4 }));
}

export async function rotateKeysCommand(opts: DataDirOpts): Promise<void> {
  const config = platformConfig(opts);
  if (config.jwtPrivateKeyPem) {
    process.stderr.write('overlook: OVERLOOK_JWT_PRIVATE_KEY is set: JWTs are signed with that key, not with the keys kept in the database\n');
    process.exitCode = 2;
    return;
  }
  await withMigratedDb(config, async (db) => {
    const rotated = await rotateJwtKey(openSecretStore(config, db, { warn: (m) => process.stderr.write(`overlook: ${m}\n`) }), {
      dataDir: config.dataDir,
      retireAfterMs: jwtKeyRetireAfterMs(config),
    });
    process.stdout.write(`${JSON.stringify({ active_kid: rotated.kid, kids: rotated.listed })}\n`);
  });
}

/** Runs an administrative command on the platform's database, migrated first, and closes it whatever happens. */
async function withMigratedDb(config: PlatformConfig, run: (db: PlatformDb) => Promise<void>): Promise<void> {
  const db = openDb<PlatformDatabase>(platformDbOptions(config));
  try {
    await migratePlatform(config, db);
    await run(db);
  } finally {
    await db.close();
  }
}

/** A refusal of the command's input: its message on stderr and an exit code (2 unless `codes` names one); anything else is thrown. */
function exitOnApiError(err: unknown, codes: Partial<Record<ApiError['code'], number>>): void {
  if (!(err instanceof ApiError)) throw err;
  process.stderr.write(`overlook: ${err.message}\n`);
  process.exitCode = codes[err.code] ?? 2;
}
