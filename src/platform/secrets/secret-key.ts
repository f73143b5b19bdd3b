// The platform's secret key: OVERLOOK_SECRET_KEY (base64 of 32 bytes), or a key file generated once into
// the data dir (mode 0600) for a single node. It seals the secrets kept in the database; every node of
// one database needs the same key (docs/deploy.md, Secrets). The file keeps the name it had when it was
// only the connector vault's key, so data dirs made before keep their key.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const SECRET_KEY_FILE = 'connector-secret.key';

export interface SecretKey {
  key: Buffer;
  /** `config`: OVERLOOK_SECRET_KEY; `file`: this node's key file, which no other node has. */
  source: 'config' | 'file';
}

export function loadSecretKey(opts: { secretKeyBase64?: string; dataDir: string }): SecretKey {
  if (opts.secretKeyBase64) {
    const key = Buffer.from(opts.secretKeyBase64, 'base64');
    if (key.length !== 32) throw new Error('OVERLOOK_SECRET_KEY must be the base64 encoding of 32 bytes');
    return { key, source: 'config' };
  }
  const file = join(opts.dataDir, SECRET_KEY_FILE);
  if (existsSync(file)) {
    const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
    if (key.length !== 32) throw new Error(`${file} does not hold a base64 32-byte key`);
    return { key, source: 'file' };
  }
  mkdirSync(dirname(file), { recursive: true });
  const key = randomBytes(32);
  // `wx`: two processes starting at once must not overwrite each other's key.
  try {
    writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return loadSecretKey(opts);
    throw err;
  }
  chmodSync(file, 0o600);
  return { key, source: 'file' };
}
