// Per-key limits (docs/access-model.md, Key limits): a rate limit (requests per window, both null for
// none) and the addresses a key may be used from (a JSON array of CIDRs, null for anywhere). The rate
// counts live in `api_key_rate_counts`, in the layout rate-limiter-flexible's PostgreSQL store reads and
// writes (key, points, expire; as `login_throttle`), so every node counts the same requests. Created on
// SQLite too, where it stays empty: one node counts in its own memory.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_keys').addColumn('rate_limit_requests', 'integer').execute();
  await db.schema.alterTable('api_keys').addColumn('rate_limit_window_seconds', 'integer').execute();
  await db.schema.alterTable('api_keys').addColumn('allowed_ips', 'text').execute();
  await db.schema
    .createTable('api_key_rate_counts')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('points', 'integer', (c) => c.notNull().defaultTo(0))
    // When the count ends, in milliseconds since the epoch.
    .addColumn('expire', 'bigint')
    .execute();
  await db.schema.createIndex('api_key_rate_counts_expire_idx').on('api_key_rate_counts').column('expire').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('api_key_rate_counts').ifExists().execute();
  await db.schema.alterTable('api_keys').dropColumn('allowed_ips').execute();
  await db.schema.alterTable('api_keys').dropColumn('rate_limit_window_seconds').execute();
  await db.schema.alterTable('api_keys').dropColumn('rate_limit_requests').execute();
}
