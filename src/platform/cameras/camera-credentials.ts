// A camera's password is a credential of another system: the cameras table keeps it sealed with the
// platform's secret key (the secrets feature's sealing, bound to the camera's id), as `password_sealed`
// inside the connection details, never as `password`. The repository seals on the way in and opens on
// the way out, so everything above it sees the connection details as before (docs/security.md).
import type { PlatformDb } from '../database.js';
import type { SecretStore } from '../secrets/index.js';

const KIND = 'camera-credentials';
const boundTo = (cameraId: string) => `camera/${cameraId}/password`;

type Connection = Record<string, unknown> & { password?: unknown; password_sealed?: unknown };

/** The sealing key of each database the cameras feature runs on (set when the feature is built). */
const stores = new WeakMap<PlatformDb, SecretStore>();

export function useCameraCredentialSealing(db: PlatformDb, secrets: SecretStore): void {
  stores.set(db, secrets);
}

function storeOf(db: PlatformDb): SecretStore {
  const store = stores.get(db);
  if (!store) throw new Error('camera credentials cannot be sealed: the cameras feature is not built on this database');
  return store;
}

/** The connection details as stored: the password sealed. Unchanged text when there is no password. */
export function sealConnection(db: PlatformDb, cameraId: string, connection: string): string {
  if (!connection.includes('"password"')) return connection;
  const c = JSON.parse(connection) as Connection;
  if (typeof c.password !== 'string') return connection;
  const { password, ...rest } = c;
  return JSON.stringify({ ...rest, password_sealed: storeOf(db).sealValue(KIND, boundTo(cameraId), password) });
}

// Opened details by stored text: a camera row is read far more often than it changes.
const opened = new Map<string, string>();
const OPENED_LIMIT = 10_000;

/** The connection details as the cameras feature uses them: the password opened. Unchanged text when none is sealed. */
export function openConnection(db: PlatformDb, cameraId: string, stored: string): string {
  if (!stored.includes('"password_sealed"')) return stored;
  const key = `${cameraId}\n${stored}`;
  let text = opened.get(key);
  if (text === undefined) {
    const c = JSON.parse(stored) as Connection;
    if (typeof c.password_sealed !== 'string') return stored;
    const { password_sealed, ...rest } = c;
    text = JSON.stringify({ ...rest, password: storeOf(db).openValue(KIND, boundTo(cameraId), password_sealed) });
    if (opened.size >= OPENED_LIMIT) opened.delete(opened.keys().next().value!);
    opened.set(key, text);
  }
  return text;
}

/** Whether stored connection details still hold a password in clear (written before sealing). */
export const holdsPlainPassword = (stored: string) => stored.includes('"password"') && typeof (JSON.parse(stored) as Connection).password === 'string';
