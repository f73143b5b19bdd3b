// The camera's picture status (docs/analysis.md, Faults and the camera's status): `fault` while any
// picture check of its stored frames is in fault, beside `status`, which stays the connection's.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('cameras')
    .addColumn('picture_status', 'text', (c) => c.notNull().defaultTo('ok'))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('cameras').dropColumn('picture_status').execute();
}
