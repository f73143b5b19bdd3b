// The users feature's table: people and their platform-wide state (migrations in src/platform/db/migrations).
import { flag, json, nullable, optional, table, text, timestamp, type TableType, type TablesType } from '../../lib/db/table.js';

const users = table({
  id: text(),
  email: text(),
  password_hash: text(),
  firstname: text(),
  lastname: text(),
  is_admin: flag(),
  /** Array of the feature flags enabled for this person. */
  features: json(),
  created_at: timestamp(),
  updated_at: timestamp(),
  /** Set while a platform admin has disabled the account: no sign-in, no session, no key works. */
  disabled_at: optional(nullable(timestamp())),
});
export type UsersTable = TableType<typeof users>;

export const usersTables = { users };
export type UsersTables = TablesType<typeof usersTables>;
