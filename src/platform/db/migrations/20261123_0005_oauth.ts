// The OAuth authorization server's storage (oidc-provider's adapter): one generic table for every model
// it persists (clients, grants, sessions, interactions, codes, refresh tokens…), so registrations and
// grants survive a restart on SQLite and PostgreSQL alike. `owner_id` marks the clients a person
// registered through /v2/developer/apps (dynamic registrations have none).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('oauth_records')
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    // The model's payload as oidc-provider hands it over, JSON.
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('grant_id', 'text')
    .addColumn('user_code', 'text')
    .addColumn('uid', 'text')
    .addColumn('owner_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('consumed_at', 'text')
    .addPrimaryKeyConstraint('oauth_records_pk', ['model', 'id'])
    .execute();
  await db.schema.createIndex('oauth_records_grant_idx').on('oauth_records').column('grant_id').execute();
  await db.schema.createIndex('oauth_records_uid_idx').on('oauth_records').column('uid').execute();
  await db.schema.createIndex('oauth_records_user_code_idx').on('oauth_records').column('user_code').execute();
  await db.schema.createIndex('oauth_records_owner_idx').on('oauth_records').columns(['owner_id', 'model']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('oauth_records').execute();
}
