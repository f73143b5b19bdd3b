// The users table: people, found by id or e-mail, searched by administrators, and the names and
// e-mails other features show beside the rows they own (asked for in batches, one query per list).
import { contains } from '../../lib/db/contains.js';
import { pageOffset } from '../../lib/http/pagination.js';
import type { PlatformDb } from '../database.js';
import { normaliseEmail } from './user-record.js';
import type { UsersTable } from './users-tables.js';

export const findUserById = (db: PlatformDb, id: string) => db.kysely.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();

export const findUserByEmail = (db: PlatformDb, email: string) =>
  db.kysely.selectFrom('users').selectAll().where('email', '=', normaliseEmail(email)).executeTakeFirst();

export const insertUser = (db: PlatformDb, row: UsersTable) => db.kysely.insertInto('users').values(row).execute();

export const updateUser = (db: PlatformDb, id: string, set: Partial<UsersTable>) => db.kysely.updateTable('users').set(set).where('id', '=', id).execute();

/** What decides whether a person's credentials work: the admin flag and a disabled account. */
export const accountStateOf = (db: PlatformDb, id: string) =>
  db.kysely.selectFrom('users').select(['is_admin', 'disabled_at']).where('id', '=', id).executeTakeFirst();

/** E-mails of the given people, by id, in e-mail order (people since deleted are simply absent). */
export async function emailsOf(db: PlatformDb, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.kysely
    .selectFrom('users')
    .select(['id', 'email'])
    .where('id', 'in', [...new Set(ids)])
    .orderBy('email')
    .execute();
  return new Map(rows.map((r) => [r.id, r.email]));
}

export interface UserProfile {
  id: string;
  email: string;
  firstname: string;
  lastname: string;
}

/** Names and e-mails of the given people, by id, in e-mail order or (`name`) by last name then e-mail. */
export async function profilesOf(db: PlatformDb, ids: readonly string[], order: 'email' | 'name' = 'email'): Promise<Map<string, UserProfile>> {
  if (ids.length === 0) return new Map();
  let q = db.kysely
    .selectFrom('users')
    .select(['id', 'email', 'firstname', 'lastname'])
    .where('id', 'in', [...new Set(ids)]);
  if (order === 'name') q = q.orderBy('lastname');
  const rows = await q.orderBy('email').execute();
  return new Map(rows.map((r) => [r.id, r]));
}

/** The people among the given e-mails (compared in lower case) and ids. */
export async function usersAmong(db: PlatformDb, emails: readonly string[], ids: readonly string[]): Promise<{ id: string; email: string }[]> {
  if (emails.length === 0 && ids.length === 0) return [];
  return db.kysely
    .selectFrom('users')
    .select(['id', 'email'])
    .where((eb) => {
      const ors = [];
      if (emails.length > 0) ors.push(eb(eb.fn('lower', ['email']), 'in', emails));
      if (ids.length > 0) ors.push(eb('id', 'in', ids));
      return eb.or(ors);
    })
    .execute();
}

export interface UserSearch {
  q?: string;
  status?: 'active' | 'disabled';
  admin?: boolean;
  page: number;
  pageSize: number;
}

/** One page of people (by e-mail) matching an administrator's search, and how many match in all. */
export async function searchUsers(db: PlatformDb, s: UserSearch): Promise<{ total: number; rows: UsersTable[] }> {
  let query = db.kysely.selectFrom('users');
  if (s.q) {
    const text = s.q;
    query = query.where((eb) => eb.or([contains('email', text), contains('firstname', text), contains('lastname', text), eb('id', '=', text.trim())]));
  }
  if (s.status === 'disabled') query = query.where('disabled_at', 'is not', null);
  if (s.status === 'active') query = query.where('disabled_at', 'is', null);
  if (s.admin !== undefined) query = query.where('is_admin', '=', s.admin ? 1 : 0);
  const { total } = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await query.selectAll().orderBy('email').limit(s.pageSize).offset(pageOffset(s.page, s.pageSize)).execute();
  return { total: Number(total), rows };
}

/** Platform statistics: people, administrators, disabled accounts. */
export async function userCounts(db: PlatformDb): Promise<{ total: number; admins: number; disabled: number }> {
  const count = db.kysely.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n'));
  const [total, admins, disabled] = await Promise.all([
    count.executeTakeFirstOrThrow(),
    count.where('is_admin', '=', 1).executeTakeFirstOrThrow(),
    count.where('disabled_at', 'is not', null).executeTakeFirstOrThrow(),
  ]);
  return { total: Number(total.n), admins: Number(admins.n), disabled: Number(disabled.n) };
}
