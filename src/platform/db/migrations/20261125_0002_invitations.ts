// Invitations to a project for e-mails that have no account yet (docs/settings.md, Members): one per
// project and e-mail (adding the e-mail again refreshes it), gone with their project.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('project_invitations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('invited_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('project_invitations_project_email_uq', ['project_id', 'email'])
    .execute();
  // A person's pending invitations are looked up by their e-mail.
  await db.schema.createIndex('project_invitations_email_idx').on('project_invitations').column('email').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('project_invitations').execute();
}
