// Where each lease's holder can be reached: the node's address (OVERLOOK_NODE_URL, or the address it
// listens on), so a request for work another node holds (a live stream) can be passed to that node
// (docs/deploy.md, Live view on several nodes). Null for a node that does not listen.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('work_leases').addColumn('holder_url', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('work_leases').dropColumn('holder_url').execute();
}
