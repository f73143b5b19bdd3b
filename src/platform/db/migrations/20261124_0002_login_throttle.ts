// The sign-in throttle's counters (src/platform/auth/login-throttle-repository.ts), shared by every node
// on PostgreSQL. The layout is the one rate-limiter-flexible's PostgreSQL store reads and writes (it
// inserts by position: key, points, expire), created here so the store never creates tables itself; the
// key is text rather than the store's own varchar(255), as `pair:` + an e-mail address + an IP address
// can be longer. Created on SQLite too (one set of migrations), where it stays empty: one node counts in
// its own memory.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('login_throttle')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('points', 'integer', (c) => c.notNull().defaultTo(0))
    // When the count (or the block) ends, in milliseconds since the epoch.
    .addColumn('expire', 'bigint')
    .execute();
  await db.schema.createIndex('login_throttle_expire_idx').on('login_throttle').column('expire').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('login_throttle').ifExists().execute();
}
