// Third-party connectors (Procore, Autodesk Construction Cloud, Aconex, Voyage Control, doorbell and
// weather providers): one connection per person and provider with its tokens or credentials encrypted
// (token-vault.ts), the short-lived state of an OAuth authorization in progress, what was uploaded to a
// provider (so "list uploads" answers without asking the provider), and events providers push to us.
import type { Kysely } from 'kysely';

const ts = 'text';

export async function up(db: Kysely<any>): Promise<void> {
  // The foundation's provider-token table, which nothing ever wrote to: connector_connections replaces it.
  await db.schema.dropTable('oauth_provider_tokens').ifExists().execute();

  await db.schema
    .createTable('connector_connections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    // 'oauth' | 'credentials'
    .addColumn('auth_kind', 'text', (c) => c.notNull())
    // AES-256-GCM envelopes (token-vault.ts); never plaintext.
    .addColumn('access_token_enc', 'text')
    .addColumn('refresh_token_enc', 'text')
    .addColumn('expires_at', ts)
    .addColumn('credentials_enc', 'text')
    // JSON: who we are at the provider (remote user, company names), shown by status.
    .addColumn('account', 'text', (c) => c.notNull().defaultTo('{}'))
    // JSON array of granted scopes.
    .addColumn('scopes', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addUniqueConstraint('connector_connections_user_provider', ['user_id', 'provider'])
    .execute();

  await db.schema
    .createTable('connector_oauth_states')
    .addColumn('state', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('code_verifier_enc', 'text')
    .addColumn('project_exid', 'text')
    .addColumn('redirect_after', 'text')
    .addColumn('expires_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('connector_oauth_states_expiry_idx').on('connector_oauth_states').column('expires_at').execute();

  await db.schema
    .createTable('connector_uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('camera_id', 'text', (c) => c.references('cameras.id').onDelete('cascade'))
    // The provider's project (or hub/folder path) and the id it gave the uploaded item.
    .addColumn('remote_project_id', 'text', (c) => c.notNull())
    .addColumn('remote_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    // JSON: what the provider answered that is worth showing (urls, category, document number…).
    .addColumn('details', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('connector_uploads_project_idx').on('connector_uploads').columns(['project_id', 'provider', 'created_at']).execute();

  await db.schema
    .createTable('connector_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('project_id', 'text', (c) => c.references('projects.id').onDelete('cascade'))
    .addColumn('payload', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('received_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('connector_events_provider_idx').on('connector_events').columns(['provider', 'received_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['connector_events', 'connector_uploads', 'connector_oauth_states', 'connector_connections']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
  // Back to the foundation's shape.
  await db.schema
    .createTable('oauth_provider_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('token_data', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('expires_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addUniqueConstraint('oauth_provider_tokens_user_provider', ['user_id', 'provider'])
    .execute();
}
