// `overlook users reset-password`: a new password for a person, set straight in the database (the
// server may or may not be running), and every session of theirs ended. On PostgreSQL the running
// nodes are told at once, with the same NOTIFY their own changes send (docs/deploy.md, Cache
// invalidation across nodes); on SQLite a running server may honour a session it has already seen for
// up to its cache's bound of 60 s.
import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { pino } from 'pino';
import { hashPassword } from '../lib/auth/passwords.js';
import { type CacheFact, cacheChannel, encodeForgets } from '../lib/cache/index.js';
import { ApiError } from '../lib/errors.js';
import { AuditLog, SYSTEM_CONTEXT } from '../platform/audit/audit-log.js';
import { revokeSessionsOf } from '../platform/auth/sessions-repository.js';
import type { PlatformDb } from '../platform/database.js';
import { checkPassword } from '../platform/users/create-user.js';
import { normaliseEmail, toUserRecord, type UserRecord } from '../platform/users/user-record.js';
import { findUserByEmail, findUserById, updateUser } from '../platform/users/users-repository.js';

export interface PasswordReset {
  user: UserRecord;
  /** The password set: the one given, or the generated one. */
  password: string;
  generated: boolean;
  sessionsEnded: number;
}

/** 16 random bytes, 22 characters: well above the minimum length, easy to paste. */
const generatePassword = (): string => randomBytes(16).toString('base64url');

export async function resetPassword(db: PlatformDb, email: string, given?: string): Promise<PasswordReset> {
  const password = given ?? generatePassword();
  checkPassword(password);
  const row = await findUserByEmail(db, email);
  if (!row) throw new ApiError('NOT_FOUND', `No user has the e-mail ${normaliseEmail(email)}`);
  await updateUser(db, row.id, { password_hash: await hashPassword(password), updated_at: new Date().toISOString() });
  const sessionsEnded = await revokeSessionsOf(db, row.id, new Date().toISOString());
  await tellRunningNodes(db, [{ kind: 'user', id: row.id }]);
  const audit = new AuditLog(db, pino({ level: 'error' }, process.stderr));
  await audit.record(SYSTEM_CONTEXT, {
    action: 'user.password_reset',
    subjectUserId: row.id,
    target: { type: 'user', id: row.id },
    details: { by: 'cli', sessions_ended: sessionsEnded },
  });
  return { user: toUserRecord((await findUserById(db, row.id))!), password, generated: given === undefined, sessionsEnded };
}

/**
 * PostgreSQL: the message every node's invalidation bus listens for, from a sender id of our own (a node
 * ignores only its own), so running nodes forget the person's cached sessions within a second. SQLite
 * has one node and no channel to send on.
 */
async function tellRunningNodes(db: PlatformDb, facts: CacheFact[]): Promise<void> {
  if (db.dialect !== 'postgres') return;
  const channel = cacheChannel(db.pgSchema);
  for (const payload of encodeForgets(`cli-${randomUUID()}`, facts)) {
    await sql`select pg_notify(${channel}, ${payload})`.execute(db.kysely);
  }
}
