// Start-up step: passwords stored before camera credentials were sealed are sealed now. Idempotent (a
// sealed password is `password_sealed`, never `password`) and safe on several nodes at once.
import type { PlatformDb } from '../database.js';
import { holdsPlainPassword, sealConnection } from './camera-credentials.js';
import { camerasWithPasswords, replaceStoredConnection } from './cameras-repository.js';

/** How many cameras' passwords were sealed. */
export async function sealStoredCameraPasswords(db: PlatformDb): Promise<number> {
  let sealed = 0;
  for (const row of await camerasWithPasswords(db)) {
    if (!holdsPlainPassword(row.connection)) continue;
    const res = await replaceStoredConnection(db, row.id, row.connection, sealConnection(db, row.id, row.connection));
    sealed += Number(res[0]?.numUpdatedRows ?? 0);
  }
  return sealed;
}
