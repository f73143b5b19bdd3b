// The user record of contract §3, and the repository functions every feature shares for people.
import { Type, type Static } from 'typebox';
import type { Db } from '../../lib/db/index.js';
import { toBool } from '../../lib/db/index.js';
import type { UsersTable } from '../../lib/db/schema.js';

export const UserRecord = Type.Object(
  {
    id: Type.String(),
    email: Type.String(),
    firstname: Type.String(),
    lastname: Type.String(),
    is_admin: Type.Boolean(),
    created_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'UserRecord' },
);
export type UserRecord = Static<typeof UserRecord>;

export const toUserRecord = (u: Pick<UsersTable, 'id' | 'email' | 'firstname' | 'lastname' | 'is_admin' | 'created_at'>): UserRecord => ({
  id: u.id,
  email: u.email,
  firstname: u.firstname,
  lastname: u.lastname,
  is_admin: toBool(u.is_admin),
  created_at: u.created_at,
});

/** E-mail addresses are compared without case and surrounding space. */
export const normaliseEmail = (email: string) => email.trim().toLowerCase();

export const findUserById = (db: Db, id: string) => db.kysely.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();

export const findUserByEmail = (db: Db, email: string) =>
  db.kysely.selectFrom('users').selectAll().where('email', '=', normaliseEmail(email)).executeTakeFirst();
