// The oidc_login_states and user_identities tables: provider sign-ins between redirect and callback,
// and people's accounts at external OpenID Connect providers.
import type { PlatformDb } from '../database.js';
import type { OidcLoginStatesTable, UserIdentitiesTable } from './auth-tables.js';

export const deleteLoginStatesExpiredBefore = (db: PlatformDb, at: string) => db.kysely.deleteFrom('oidc_login_states').where('expires_at', '<', at).execute();

export const insertLoginState = (db: PlatformDb, row: OidcLoginStatesTable) => db.kysely.insertInto('oidc_login_states').values(row).execute();

export const loginState = (db: PlatformDb, state: string) =>
  db.kysely.selectFrom('oidc_login_states').selectAll().where('state', '=', state).executeTakeFirst();

export const deleteLoginState = (db: PlatformDb, state: string) => db.kysely.deleteFrom('oidc_login_states').where('state', '=', state).execute();

/** The person an account at the provider is linked to. */
export const linkedIdentity = (db: PlatformDb, provider: string, subject: string) =>
  db.kysely.selectFrom('user_identities').select('user_id').where('provider', '=', provider).where('subject', '=', subject).executeTakeFirst();

export const touchIdentity = (db: PlatformDb, provider: string, subject: string, at: string) =>
  db.kysely.updateTable('user_identities').set({ last_login_at: at }).where('provider', '=', provider).where('subject', '=', subject).execute();

export const insertIdentity = (db: PlatformDb, row: UserIdentitiesTable) => db.kysely.insertInto('user_identities').values(row).execute();

/** A person's linked accounts, by provider. */
export const identitiesOf = (db: PlatformDb, userId: string) =>
  db.kysely
    .selectFrom('user_identities')
    .select(['provider', 'email', 'created_at', 'last_login_at'])
    .where('user_id', '=', userId)
    .orderBy('provider')
    .execute();
