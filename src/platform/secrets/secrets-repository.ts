// The secrets table: sealed key material, one row per kind and generation.
import type { PlatformDb } from '../database.js';

export interface SecretRow {
  kind: string;
  generation: number;
  kid: string;
  sealed: string;
  created_at: string;
}

/** Every secret of a kind, newest generation first. */
export async function secretsOfKind(db: PlatformDb, kind: string): Promise<SecretRow[]> {
  const rows = await db.kysely
    .selectFrom('secrets')
    .select(['kind', 'generation', 'kid', 'sealed', 'created_at'])
    .where('kind', '=', kind)
    .orderBy('generation', 'desc')
    .execute();
  return rows.map((r) => ({ ...r, generation: Number(r.generation) }));
}

/**
 * Inserts a secret unless its (kind, generation) or (kind, kid) is taken: whichever node inserts first
 * wins, the others read the winner. True when this call inserted the row.
 */
export async function insertSecretIfAbsent(db: PlatformDb, row: SecretRow): Promise<boolean> {
  const result = await db.kysely
    .insertInto('secrets')
    .values(row)
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}
