// What the platform's administrative commands do (migrate, users, keys; platform-commands.ts defines
// them): the database and the few modules each needs, not the server.
import { platformConfig, type PlatformConfig } from '../lib/config.js';
import { openDb, platformDbOptions } from '../lib/db/index.js';
import type { PlatformDatabase, PlatformDb } from '../platform/database.js';
import { migratePlatform } from '../platform/db/migrate-platform.js';
import { ApiError } from '../lib/errors.js';
import { createUser } from '../platform/users/create-user.js';
import { DEMO_EMAIL } from '../platform/demo/seed.js';
import { refreshDemoCredentials } from './demo-credentials.js';
import { resetPassword } from './reset-password.js';
import { rotateJwtKey } from '../platform/secrets/jwt-keys.js';
import { jwtKeyRetireAfterMs, openSecretStore } from '../platform/secrets/secrets-plugin.js';
import type { CreateUserOpts, DataDirOpts, ResetPasswordOpts } from './command-options.js';

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
