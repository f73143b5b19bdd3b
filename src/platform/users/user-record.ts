// The user record (docs/access-model.md, People); the users table's queries are in users-repository.ts.
import { Type, type Static } from 'typebox';
import { toBool } from '../../lib/db/index.js';
import type { UsersTable } from './users-tables.js';

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
