// Leases on background work: which node records a camera, runs retention or renders a media item
// (docs/deploy.md, Background work). A lease is taken with a conditional upsert (free, expired or
// already ours) and renewed by its holder's heartbeat; a dead node's leases expire and others take them.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('work_leases')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('work_leases_holder_idx').on('work_leases').column('holder').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('work_leases').ifExists().execute();
}
