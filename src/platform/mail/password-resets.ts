// Password reset by e-mail (docs/email.md, Password reset). Asking records one outbox event naming the
// address, whatever the address, so the answer and its timing say nothing about accounts; the e-mail
// channel then looks the account up and makes the link's token as it sends (only its SHA-256 is
// stored, never the token, in the outbox or elsewhere). Confirming spends the token once, sets the
// password and ends every session the person had.
import { createHash, randomBytes } from 'node:crypto';
import { hashPassword } from '../../lib/auth/passwords.js';
import { validation } from '../../lib/errors.js';
import { inTransaction } from '../../lib/db/transaction.js';
import { newId } from '../../lib/ids.js';
import type { AuditContext, AuditLog } from '../audit/index.js';
import type { SessionStore } from '../auth/index.js';
import type { PlatformDb } from '../database.js';
import { checkPassword, findUserByEmail, normaliseEmail, updateUser } from '../users/index.js';
import * as repo from './mail-repository.js';
import type { Outbox } from '../outbox/index.js';

/** How long a reset link works. */
export const RESET_MINUTES = 30;
/** Reset e-mails one person gets in an hour; more requests are answered alike and send nothing. */
const RESETS_PER_HOUR = 3;

export const RESET_EVENT = 'password_reset.requested' as const;

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

const spentOrExpired = () => validation('token', 'this reset link was used already or has expired; ask for a new one');

export class PasswordResets {
  constructor(
    private readonly db: PlatformDb,
    private readonly outbox: Pick<Outbox, 'record'>,
    private readonly sessions: Pick<SessionStore, 'revokeAllOf'>,
    private readonly audit: AuditLog,
    /** Whether e-mail is on: without it no link could reach anyone, so no token is made. */
    private readonly mailEnabled: boolean,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Asks for a reset link for the address. The request does the same work whatever the address: one
   * event naming it, recorded for the outbox. Whether it has an account is looked at only later, by the
   * e-mail channel (`recipientOf`, `issue`), so neither the answer nor its timing tells.
   */
  async request(emailGiven: string): Promise<void> {
    if (!this.mailEnabled) return;
    const email = normaliseEmail(emailGiven);
    await inTransaction(this.db, (tx) => this.outbox.record(tx, { type: RESET_EVENT, projectExid: null, data: { email } }));
  }

  /** The address a reset e-mail goes to: an enabled account's, under its hourly limit; null: nothing is sent. */
  async recipientOf(email: string): Promise<string | null> {
    const user = await findUserByEmail(this.db, email);
    if (!user || user.disabled_at) return null;
    const since = new Date(this.now().getTime() - 3_600_000).toISOString();
    return (await repo.resetsSince(this.db, user.id, since)) >= RESETS_PER_HOUR ? null : user.email;
  }

  /** Makes the token an e-mail's link carries (only its SHA-256 is stored); null when the account is gone or disabled. */
  async issue(email: string): Promise<string | null> {
    const user = await findUserByEmail(this.db, email);
    if (!user || user.disabled_at) return null;
    const now = this.now();
    const token = randomBytes(32).toString('base64url');
    await repo.deleteResetsExpiredBefore(this.db, new Date(now.getTime() - 86_400_000).toISOString());
    await repo.insertPasswordReset(this.db, {
      id: newId(),
      user_id: user.id,
      token_hash: hashOf(token),
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + RESET_MINUTES * 60_000).toISOString(),
      used_at: null,
    });
    return token;
  }

  /** Sets the new password with a token from a reset e-mail; 400 when the token is unknown, spent or expired. */
  async confirm(ctx: AuditContext, token: string, password: string): Promise<void> {
    checkPassword(password);
    const row = await repo.passwordResetByHash(this.db, hashOf(token));
    if (!row) throw spentOrExpired();
    const passwordHash = await hashPassword(password);
    const now = this.now().toISOString();
    await inTransaction(this.db, async (tx) => {
      // Spent once: of two confirmations with one token, only one finds it unspent.
      if (!(await repo.spendPasswordReset(tx, row.id, now))) throw spentOrExpired();
      await repo.spendOtherResetsOf(tx, row.user_id, now);
      await updateUser(tx, row.user_id, { password_hash: passwordHash, updated_at: now });
    });
    const sessionsEnded = await this.sessions.revokeAllOf(row.user_id);
    await this.audit.record(
      { ...ctx, actorUserId: row.user_id },
      {
        action: 'user.password_reset',
        subjectUserId: row.user_id,
        target: { type: 'user', id: row.user_id },
        details: { by: 'email', sessions_ended: sessionsEnded },
      },
    );
  }
}
