// Sealing a short secret (a password, an access key) for storage: AES-256-GCM under a key derived
// (HKDF-SHA256) from a service's secret key for one purpose, bound to where it is kept (the GCM
// additional data, e.g. the row's id), so a copy of the database alone reveals nothing and a sealed
// value moved to another row does not open. Sealed text is `sealed:v1.<iv>.<tag>.<ciphertext>` (SEALED_V1).
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const IV_BYTES = 12;

/**
 * How a Sealer derives its key and writes its text. A format, once used, is stored data: it never
 * changes (the platform's secrets keep theirs, src/platform/secrets/secret-store.ts).
 */
export interface SealFormat {
  /** The HKDF salt. */
  salt: string;
  /** The HKDF info is this followed by the purpose. */
  infoPrefix: string;
  /** The text before `<iv>.<tag>.<ciphertext>`. */
  prefix: string;
}

const SEALED_V1: SealFormat = { salt: 'overlook-sealed', infoPrefix: 'overlook/sealed/', prefix: 'sealed:v1.' };

export class Sealer {
  private readonly key: Buffer;

  constructor(
    secretKey: Buffer,
    purpose: string,
    private readonly format: SealFormat = SEALED_V1,
  ) {
    if (secretKey.length !== 32) throw new Error('the secret key must be 32 bytes');
    this.key = Buffer.from(hkdfSync('sha256', secretKey, format.salt, `${format.infoPrefix}${purpose}`, 32));
  }

  /** True when the text is sealed in the default format (stored values written before sealing existed are not). */
  static isSealed(text: string): boolean {
    return text.startsWith(SEALED_V1.prefix);
  }

  seal(plaintext: string, boundTo: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(boundTo));
    const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return this.format.prefix + [iv, cipher.getAuthTag(), ct].map((b) => b.toString('base64url')).join('.');
  }

  /** The plaintext; throws when the text was sealed under another key or for another place. */
  open(sealed: string, boundTo: string): string {
    const [iv, tag, ct] = sealed.slice(this.format.prefix.length).split('.');
    if (!sealed.startsWith(this.format.prefix) || iv === undefined || tag === undefined || ct === undefined) throw new Error('not a sealed value');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(boundTo));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new Error(`a stored secret of ${boundTo} cannot be unsealed: it was sealed with another secret key`);
    }
  }
}
