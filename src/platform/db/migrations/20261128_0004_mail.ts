// E-mail (docs/email.md): password-reset tokens (hashed, single use), each address's choices of what
// it receives, and the moment each progress-photo schedule was last sent for.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('password_resets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  // Recent requests of a person are counted (the per-person throttle).
  await db.schema.createIndex('password_resets_user_idx').on('password_resets').columns(['user_id', 'created_at']).execute();
  await db.schema
    .createTable('mail_preferences')
    .addColumn('email', 'text', (c) => c.primaryKey())
    .addColumn('off', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('progress_photo_sends')
    .addColumn('progress_photo_id', 'text', (c) => c.primaryKey().references('progress_photos.id').onDelete('cascade'))
    .addColumn('last_slot', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('progress_photo_sends').execute();
  await db.schema.dropTable('mail_preferences').execute();
  await db.schema.dropTable('password_resets').execute();
}
