// The platform's secret key: OVERLOOK_SECRET_KEY (base64 of 32 bytes), or a key file generated once into
// the data dir (mode 0600) for a single node (src/lib/secrets/key-file.ts). It seals the secrets kept in
// the database; every node of one database needs the same key (docs/deploy.md, Secrets). The file keeps
// the name it had when it was only the connector vault's key, so data dirs made before keep their key.
import { join } from 'node:path';
import { type LoadedKey, loadKey } from '../../lib/secrets/key-file.js';

export const SECRET_KEY_FILE = 'connector-secret.key';

/** `source` — `config`: OVERLOOK_SECRET_KEY; `file`: this node's key file, which no other node has. */
export type SecretKey = LoadedKey;

export function loadSecretKey(opts: { secretKeyBase64?: string; dataDir: string }): SecretKey {
  return loadKey({
    base64: opts.secretKeyBase64,
    file: join(opts.dataDir, SECRET_KEY_FILE),
    envName: 'OVERLOOK_SECRET_KEY',
    tightenExisting: false,
  });
}
