// Provider tokens and credentials are secrets of other systems: they are kept encrypted at rest with
// AES-256-GCM (node:crypto), so a copy of the database alone reveals none of them. The key comes from
// OVERLOOK_SECRET_KEY (base64 of 32 bytes) or is generated once into `<data dir>/connector-secret.key`.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const VERSION = 'v1';
const IV_BYTES = 12;

export class TokenVault {
  private readonly key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('the connector secret key must be 32 bytes');
    this.key = key;
  }

  /** `v1.<iv>.<tag>.<ciphertext>`, all base64url: self-describing so the format can change later. */
  encrypt(plaintext: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
  }

  /** Throws when the envelope was altered or sealed with another key (GCM authenticates it). */
  decrypt(envelope: string): string {
    const [v, iv, tag, ct] = envelope.split('.');
    if (v !== VERSION || iv === undefined || tag === undefined || ct === undefined) throw new Error('not a connector secret envelope');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
  }

  encryptNullable(plaintext: string | null | undefined): string | null {
    return plaintext == null ? null : this.encrypt(plaintext);
  }

  decryptNullable(envelope: string | null | undefined): string | null {
    return envelope == null ? null : this.decrypt(envelope);
  }
}

/** The vault key: OVERLOOK_SECRET_KEY when set, else the key file in the data dir (created with mode 0600). */
export function loadVaultKey(opts: { secretKeyBase64?: string; dataDir: string }): Buffer {
  if (opts.secretKeyBase64) {
    const key = Buffer.from(opts.secretKeyBase64, 'base64');
    if (key.length !== 32) throw new Error('OVERLOOK_SECRET_KEY must be the base64 encoding of 32 bytes');
    return key;
  }
  const file = join(opts.dataDir, 'connector-secret.key');
  if (existsSync(file)) {
    const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
    if (key.length !== 32) throw new Error(`${file} does not hold a base64 32-byte key`);
    return key;
  }
  mkdirSync(dirname(file), { recursive: true });
  const key = randomBytes(32);
  // `wx`: two processes starting at once must not overwrite each other's key.
  try {
    writeFileSync(file, key.toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return loadVaultKey(opts);
    throw err;
  }
  chmodSync(file, 0o600);
  return key;
}
