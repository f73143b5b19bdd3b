// Key material shared by every node of one database (docs/deploy.md, Secrets): one row per secret and
// generation, the value sealed. The primary key makes creation race-safe: nodes starting at once all
// insert generation 1 with ON CONFLICT DO NOTHING and then read the one that won.
import type { Kysely } from 'kysely';
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run on any schema's database */

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('secrets')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('generation', 'integer', (c) => c.notNull())
    .addColumn('kid', 'text', (c) => c.notNull())
    .addColumn('sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('secrets_pkey', ['kind', 'generation'])
    .addUniqueConstraint('secrets_kind_kid_key', ['kind', 'kid'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('secrets').execute();
}
