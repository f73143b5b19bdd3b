// The gate report's records (docs/plates.md, Gate report): corrections of misread plates, kept with
// who made them and gone with their event, and each gate camera's role (entry, exit or both).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('anpr_corrections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) => c.notNull().references('anpr_events.id').onDelete('cascade'))
    .addColumn('camera_id', 'text', (c) => c.notNull().references('cameras.id').onDelete('cascade'))
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('plate_before', 'text', (c) => c.notNull())
    .addColumn('plate_after', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('corrected_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('anpr_corrections_project_idx').on('anpr_corrections').columns(['project_id', 'created_at']).execute();
  await db.schema.createIndex('anpr_corrections_event_idx').on('anpr_corrections').column('event_id').execute();
  await db.schema
    .createTable('anpr_gates')
    .addColumn('camera_id', 'text', (c) => c.primaryKey().references('cameras.id').onDelete('cascade'))
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('anpr_gates_project_idx').on('anpr_gates').column('project_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('anpr_gates').execute();
  await db.schema.dropTable('anpr_corrections').execute();
}
