// Administration (docs/admin.md): the audit log, disabled accounts, impersonated sessions, and the state of
// sign-ins through external OpenID Connect providers (pending logins and linked identities).
import type { Kysely } from 'kysely';

const ts = 'text';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('audit_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    // No foreign keys: the log outlives what it talks about.
    .addColumn('actor_user_id', 'text')
    .addColumn('actor_key_id', 'text')
    .addColumn('impersonator_id', 'text')
    .addColumn('subject_user_id', 'text')
    .addColumn('target_type', 'text')
    .addColumn('target_id', 'text')
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('details', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  await db.schema.createIndex('audit_events_created_idx').on('audit_events').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('audit_events_actor_idx').on('audit_events').columns(['actor_user_id', 'created_at']).execute();
  await db.schema.createIndex('audit_events_subject_idx').on('audit_events').columns(['subject_user_id', 'created_at']).execute();
  await db.schema.createIndex('audit_events_action_idx').on('audit_events').columns(['action', 'created_at']).execute();

  await db.schema.alterTable('users').addColumn('disabled_at', ts).execute();
  await db.schema.alterTable('sessions').addColumn('impersonator_id', 'text').execute();

  await db.schema
    .createTable('oidc_login_states')
    .addColumn('state', 'text', (c) => c.primaryKey())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('return_to', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('user_identities')
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('last_login_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('user_identities_pk', ['provider', 'subject'])
    .execute();
  await db.schema.createIndex('user_identities_user_idx').on('user_identities').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('user_identities').execute();
  await db.schema.dropTable('oidc_login_states').execute();
  await db.schema.alterTable('sessions').dropColumn('impersonator_id').execute();
  await db.schema.alterTable('users').dropColumn('disabled_at').execute();
  await db.schema.dropTable('audit_events').execute();
}
