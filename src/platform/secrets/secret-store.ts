// Key material shared by every node of one database. Each value is sealed with AES-256-GCM under a key
// derived (HKDF-SHA256) from the platform's secret key, one derived key per kind of secret, and bound to
// its row (kind, generation and kid are the GCM additional data), so a copy of the database alone
// reveals no key and a sealed value moved to another row does not open.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { PlatformDb } from '../db/database.js';
import { insertSecretIfAbsent, secretsOfKind, type SecretRow } from './secrets-repository.js';

const VERSION = 'v1';
const IV_BYTES = 12;

export interface StoredSecret {
  kind: string;
  generation: number;
  kid: string;
  /** The plaintext, unsealed. */
  value: string;
  createdAt: string;
}

/** A new secret's id and value, made only when the database has none (or on rotation). */
export type MakeSecret = () => Promise<{ kid: string; value: string }>;

export class SecretStore {
  /** Unsealed values by `kind/generation`, with the sealed text they came from. */
  private readonly opened = new Map<string, { sealed: string; value: string }>();
  private readonly derived = new Map<string, Buffer>();

  constructor(
    private readonly db: PlatformDb,
    private readonly secretKey: Buffer,
  ) {
    if (secretKey.length !== 32) throw new Error('the secret key must be 32 bytes');
  }

  /** Every secret of a kind, newest (the active one) first. */
  async list(kind: string): Promise<StoredSecret[]> {
    return (await secretsOfKind(this.db, kind)).map((row) => this.open(row));
  }

  /**
   * The secrets of a kind, newest first; when there is none, `make` makes the first and whichever node
   * inserts first wins: every node then uses the stored one.
   */
  async ensure(kind: string, make: MakeSecret): Promise<StoredSecret[]> {
    const found = await this.list(kind);
    if (found.length > 0) return found;
    await this.insert(kind, 1, await make());
    return this.list(kind);
  }

  /** Adds a new generation of a kind (rotation): it becomes the active one. Returns the active secret. */
  async add(kind: string, make: MakeSecret): Promise<StoredSecret> {
    const current = await this.list(kind);
    // A node rotating at the same moment may take this generation first: theirs is then the new one.
    await this.insert(kind, (current[0]?.generation ?? 0) + 1, await make());
    return (await this.list(kind))[0]!;
  }

  private async insert(kind: string, generation: number, made: { kid: string; value: string }): Promise<void> {
    const aad = `${kind}/${generation}/${made.kid}`;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keyFor(kind), iv);
    cipher.setAAD(Buffer.from(aad));
    const ct = Buffer.concat([cipher.update(made.value, 'utf8'), cipher.final()]);
    const sealed = [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
    await insertSecretIfAbsent(this.db, { kind, generation, kid: made.kid, sealed, created_at: new Date().toISOString() });
  }

  private open(row: SecretRow): StoredSecret {
    const id = `${row.kind}/${row.generation}`;
    let opened = this.opened.get(id);
    if (opened?.sealed !== row.sealed) {
      opened = { sealed: row.sealed, value: this.unseal(row) };
      this.opened.set(id, opened);
    }
    return { kind: row.kind, generation: row.generation, kid: row.kid, value: opened.value, createdAt: row.created_at };
  }

  private unseal(row: SecretRow): string {
    const [v, iv, tag, ct] = row.sealed.split('.');
    try {
      if (v !== VERSION || iv === undefined || tag === undefined || ct === undefined) throw new Error('not a sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', this.keyFor(row.kind), Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(`${row.kind}/${row.generation}/${row.kid}`));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new Error(
        `the stored secret ${row.kind} ${row.kid} cannot be unsealed: it was sealed with another secret key. ` +
          'Every node of one database needs the same OVERLOOK_SECRET_KEY (docs/deploy.md, Secrets).',
      );
    }
  }

  /** One key per kind of secret, so no two purposes share a key. */
  private keyFor(kind: string): Buffer {
    let key = this.derived.get(kind);
    if (!key) {
      key = Buffer.from(hkdfSync('sha256', this.secretKey, 'overlook-secrets', `overlook/secrets/${kind}`, 32));
      this.derived.set(kind, key);
    }
    return key;
  }
}
