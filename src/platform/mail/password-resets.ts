// Password reset by e-mail (docs/email.md, Password reset). Asking answers the same whether or not the
// address has an account, and does the same work either way up to the database write; the e-mail is
// sent through the outbox, with the token sealed in the event (only its SHA-256 is stored). Confirming
// spends the token once, sets the password and ends every session the person had.
import { createHash, randomBytes } from 'node:crypto';
import { hashPassword } from '../../lib/auth/passwords.js';
import { validation } from '../../lib/errors.js';
import { inTransaction } from '../../lib/db/transaction.js';
import { newId } from '../../lib/ids.js';
import type { AuditContext, AuditLog } from '../audit/index.js';
import type { SessionStore } from '../auth/index.js';
import type { PlatformDb } from '../database.js';
import type { SecretStore } from '../secrets/index.js';
import { checkPassword, findUserByEmail, normaliseEmail, updateUser } from '../users/index.js';
import { TOKEN_SEAL_KIND } from './mail-links.js';
import * as repo from './mail-repository.js';
import type { Outbox } from '../outbox/index.js';

/** How long a reset link works. */
export const RESET_MINUTES = 30;
/** Resets one person may ask for in an hour; more are answered alike and send nothing. */
const RESETS_PER_HOUR = 3;

export const RESET_EVENT = 'password_reset.requested' as const;

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

const spentOrExpired = () => validation('token', 'this reset link was used already or has expired; ask for a new one');

export class PasswordResets {
  constructor(
    private readonly db: PlatformDb,
    private readonly outbox: Pick<Outbox, 'record'>,
    private readonly secrets: SecretStore,
    private readonly sessions: Pick<SessionStore, 'revokeAllOf'>,
    private readonly audit: AuditLog,
    /** Whether e-mail is on: without it no link could reach anyone, so no token is made. */
    private readonly mailEnabled: boolean,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Sends a reset link when the address has an enabled account; says nothing either way. */
  async request(emailGiven: string): Promise<void> {
    const email = normaliseEmail(emailGiven);
    const now = this.now();
    const token = randomBytes(32).toString('base64url');
    const id = newId();
    const row = {
      id,
      token_hash: hashOf(token),
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + RESET_MINUTES * 60_000).toISOString(),
      used_at: null,
    };
    const sealed = this.secrets.sealValue(TOKEN_SEAL_KIND, id, token);
    const user = await findUserByEmail(this.db, email);
    if (!user || user.disabled_at || !this.mailEnabled) return;
    if ((await repo.resetsSince(this.db, user.id, new Date(now.getTime() - 3_600_000).toISOString())) >= RESETS_PER_HOUR) return;
    await repo.deleteResetsExpiredBefore(this.db, new Date(now.getTime() - 86_400_000).toISOString());
    await inTransaction(this.db, async (tx) => {
      await repo.insertPasswordReset(tx, { ...row, user_id: user.id });
      await this.outbox.record(tx, { type: RESET_EVENT, projectExid: null, data: { reset_id: id, token: sealed } });
    });
  }

  /** The reset's link token, opened from the event (null when the reset is gone, spent or expired: nothing to send). */
  async tokenOf(resetId: string, sealed: string): Promise<{ userId: string; token: string } | null> {
    const row = await repo.passwordResetById(this.db, resetId);
    if (!row || row.used_at || Date.parse(row.expires_at) <= this.now().getTime()) return null;
    return { userId: row.user_id, token: this.secrets.openValue(TOKEN_SEAL_KIND, resetId, sealed) };
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
