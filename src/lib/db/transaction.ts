// One transaction across several repositories: each repository function takes a `Db`, so the
// transaction is handed on as a `Db` whose queries all run inside it.
import type { Db } from './index.js';

/** Runs `fn` in one transaction; every query made through `tx` belongs to it. */
export function inTransaction<S, T>(db: Db<S>, fn: (tx: Db<S>) => Promise<T>): Promise<T> {
  return db.kysely.transaction().execute((trx) => fn({ ...db, kysely: trx }));
}
