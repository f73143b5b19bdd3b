// The auth feature's tables: sessions, their activity log, sign-ins through external OpenID Connect
// providers (pending logins and linked identities), and the sign-in throttle's counters.
import { integer, nullable, oneOf, optional, table, text, timestamp, type TableType, type TablesType } from '../../lib/db/table.js';

const sessions = table({
  id: text(),
  user_id: text(),
  created_at: timestamp(),
  last_seen_at: timestamp(),
  expires_at: timestamp(),
  revoked_at: nullable(timestamp()),
  ip: nullable(text()),
  user_agent: nullable(text()),
  /** The platform admin acting as this user, when the session is an impersonation. */
  impersonator_id: optional(nullable(text())),
});
export type SessionsTable = TableType<typeof sessions>;

const sessionActivities = table({
  id: text(),
  user_id: text(),
  session_id: nullable(text()),
  action: oneOf(['login', 'login_failed', 'logout', 'session_revoked']),
  ip: nullable(text()),
  user_agent: nullable(text()),
  created_at: timestamp(),
});
export type SessionActivitiesTable = TableType<typeof sessionActivities>;
export type ActivityAction = SessionActivitiesTable['action'];

/** A provider sign-in between the redirect and the callback (state, nonce and PKCE verifier). */
const oidcLoginStates = table({
  state: text(),
  /** A configured provider's id. */
  provider: text(),
  code_verifier: text(),
  nonce: text(),
  return_to: nullable(text()),
  created_at: timestamp(),
  expires_at: timestamp(),
});
export type OidcLoginStatesTable = TableType<typeof oidcLoginStates>;

/** A person's account at an external OpenID Connect provider, linked by verified e-mail. */
const userIdentities = table({
  provider: text(),
  subject: text(),
  user_id: text(),
  email: text(),
  created_at: timestamp(),
  last_login_at: timestamp(),
});
export type UserIdentitiesTable = TableType<typeof userIdentities>;

/**
 * The sign-in throttle's counters on PostgreSQL, shared by every node (empty on SQLite). The layout is
 * rate-limiter-flexible's PostgreSQL store's: `key` is `<counter>:<what it counts>`.
 */
const loginThrottle = table({
  key: text(),
  /** Failures counted in the current window (or the count that started the block). */
  points: integer(),
  /** When the window or the block ends, in milliseconds since the epoch. */
  expire: nullable(integer()),
});

export const authTables = {
  sessions,
  session_activities: sessionActivities,
  oidc_login_states: oidcLoginStates,
  user_identities: userIdentities,
  login_throttle: loginThrottle,
};
export type AuthTables = TablesType<typeof authTables>;
