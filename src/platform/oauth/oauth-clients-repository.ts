// Anonymously registered clients (`POST /oauth/reg`, no owner) that nobody authorized: kept for a
// while so a client can finish its first sign-in, then deleted (client-registration.ts).
import { sql } from 'kysely';
import type { PlatformDb } from '../database.js';

/**
 * Deletes the clients without an owner registered before `before` that no grant names (no person
 * authorized them, or every grant they had has ended); how many.
 */
export async function deleteUnusedClients(db: PlatformDb, before: string): Promise<number> {
  // Grants name their client in the payload as `"clientId":"<id>"`; client ids are URL-safe, so the JSON text is exact.
  const res = await db.kysely
    .deleteFrom('oauth_records as c')
    .where('c.model', '=', 'Client')
    .where('c.owner_id', 'is', null)
    .where('c.created_at', '<', before)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('oauth_records as g')
            .select(sql`1`.as('one'))
            .where('g.model', '=', 'Grant')
            .where('g.payload', 'like', sql<string>`'%"clientId":"' || c.id || '"%'`),
        ),
      ),
    )
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}
