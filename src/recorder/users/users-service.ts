// Recorder users: e-mail (the login username), argon2id password, role admin or user (read-only).
import type { RecorderDb } from '../db/recorder-db.js';
import type { RecorderUsersTable } from '../db/schema.js';
import { ApiError, validation } from '../../lib/errors.js';
import { hashPassword, verifyPassword } from '../../lib/auth/passwords.js';
import { newId } from '../../lib/ids.js';
import type { CacheRegistry } from '../../lib/cache/index.js';

export type RecorderRole = 'admin' | 'user';

export interface RecorderUser {
  id: string;
  email: string;
  role: RecorderRole;
  created_at: string;
  updated_at: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const toUser = (r: RecorderUsersTable): RecorderUser => ({
  id: r.id,
  email: r.username,
  role: r.role === 'admin' ? 'admin' : 'user',
  created_at: r.created_at,
  updated_at: r.updated_at,
});

function checkPassword(pw: string) {
  if (pw.length < 8) throw validation('password', 'must be at least 8 characters');
}

export class RecorderUsers {
  constructor(
    private readonly db: RecorderDb,
    /** A new password or role, or a deletion, forgets the user's cached tokens (docs/architecture.md, Caches). */
    private readonly caches: CacheRegistry,
  ) {}

  async create(input: { email: string; password: string; role?: RecorderRole }): Promise<RecorderUser> {
    const email = input.email.trim().toLowerCase();
    if (!EMAIL.test(email)) throw validation('email', 'must be an e-mail address');
    checkPassword(input.password);
    if (await this.db.kysely.selectFrom('users').select('id').where('username', '=', email).executeTakeFirst()) {
      throw new ApiError('CONFLICT', `A recorder user ${email} already exists`);
    }
    const now = new Date().toISOString();
    const row = {
      id: newId(),
      username: email,
      password_hash: await hashPassword(input.password),
      role: input.role ?? 'user',
      created_at: now,
      updated_at: now,
    };
    await this.db.kysely.insertInto('users').values(row).execute();
    return toUser(row);
  }

  /** The user for a username and password, or null (same answer for unknown user and wrong password). */
  async authenticate(username: string, password: string): Promise<RecorderUser | null> {
    const row = await this.db.kysely.selectFrom('users').selectAll().where('username', '=', username.trim().toLowerCase()).executeTakeFirst();
    if (!row) {
      await hashPassword(password); // spend the same time as a real check
      return null;
    }
    return (await verifyPassword(row.password_hash, password)) ? toUser(row) : null;
  }

  async list(): Promise<RecorderUser[]> {
    return (await this.db.kysely.selectFrom('users').selectAll().orderBy('created_at').orderBy('id').execute()).map(toUser);
  }

  async get(id: string): Promise<RecorderUser> {
    const row = await this.db.kysely.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw new ApiError('NOT_FOUND', 'User not found');
    return toUser(row);
  }

  async update(actorId: string, id: string, input: { email?: string; password?: string; role?: RecorderRole }): Promise<RecorderUser> {
    await this.get(id);
    if (id === actorId && input.role === 'user' && (await this.adminCount()) <= 1) {
      throw new ApiError('CONFLICT', 'The last admin cannot give up the admin role');
    }
    const set: Partial<RecorderUsersTable> = { updated_at: new Date().toISOString() };
    if (input.email !== undefined) {
      const email = input.email.trim().toLowerCase();
      if (!EMAIL.test(email)) throw validation('email', 'must be an e-mail address');
      const clash = await this.db.kysely.selectFrom('users').select('id').where('username', '=', email).where('id', '!=', id).executeTakeFirst();
      if (clash) throw new ApiError('CONFLICT', `A recorder user ${email} already exists`);
      set.username = email;
    }
    if (input.password !== undefined) {
      checkPassword(input.password);
      set.password_hash = await hashPassword(input.password);
    }
    if (input.role !== undefined) set.role = input.role;
    await this.db.kysely.updateTable('users').set(set).where('id', '=', id).execute();
    if (set.password_hash || set.role) {
      // A new password or a new role takes effect at once on every token of that user.
      if (set.password_hash)
        await this.db.kysely
          .updateTable('access_tokens')
          .set({ revoked_at: set.updated_at! })
          .where('user_id', '=', id)
          .where('revoked_at', 'is', null)
          .execute();
      await this.caches.forget([{ kind: 'recorder-user', id }]);
    }
    return this.get(id);
  }

  async remove(actorId: string, id: string): Promise<void> {
    const user = await this.get(id);
    if (id === actorId) throw new ApiError('CONFLICT', 'You cannot delete yourself');
    if (user.role === 'admin' && (await this.adminCount()) <= 1) throw new ApiError('CONFLICT', 'The last admin cannot be deleted');
    await this.db.kysely.deleteFrom('access_tokens').where('user_id', '=', id).execute();
    await this.db.kysely.deleteFrom('users').where('id', '=', id).execute();
    await this.caches.forget([{ kind: 'recorder-user', id }]);
  }

  private async adminCount(): Promise<number> {
    const { n } = await this.db.kysely
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('role', '=', 'admin')
      .executeTakeFirstOrThrow();
    return Number(n);
  }
}
