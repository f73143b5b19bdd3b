// Provider tokens and credentials are secrets of other systems: they are kept encrypted at rest with
// AES-256-GCM (node:crypto), so a copy of the database alone reveals none of them. The vault key is kept
// in the database, sealed (the secrets feature, kind `connector-vault`), so every node opens what any
// node sealed.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SecretStore } from '../../secrets/index.js';

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

const VAULT_KEY_KIND = 'connector-vault';

/**
 * The vault key kept in the database. The first one stored is `legacyKey()`: the key the vault used before
 * it moved to the database (OVERLOOK_SECRET_KEY, or the data dir's key file), so what was sealed before opens.
 */
export async function loadVaultKey(secrets: SecretStore, legacyKey: () => Buffer): Promise<Buffer> {
  const [active] = await secrets.ensure(VAULT_KEY_KIND, async () => ({ kid: 'vault-1', value: legacyKey().toString('base64') }));
  const key = Buffer.from(active!.value, 'base64');
  if (key.length !== 32) throw new Error(`the stored ${VAULT_KEY_KIND} key is not 32 bytes`);
  return key;
}
