// Key material shared by every node of one database. Each value is sealed with AES-256-GCM under a key
// derived (HKDF-SHA256) from the platform's secret key, one derived key per kind of secret, and bound to
// its row (kind, generation and kid are the GCM additional data), so a copy of the database alone
// reveals no key and a sealed value moved to another row does not open.
import { type SealFormat, Sealer } from '../../lib/secrets/seal.js';
import type { PlatformDb } from '../database.js';
import { insertSecretIfAbsent, secretsOfKind, type SecretRow } from './secrets-repository.js';

/**
 * The shared Sealer (src/lib/secrets/seal.ts) in the format the platform's secrets have always been
 * stored in: HKDF-SHA256 salt `overlook-secrets`, info `overlook/secrets/<kind>`, text `v1.<iv>.<tag>.<ct>`.
 * Stored values depend on every byte of it.
 */
const SECRETS_V1: SealFormat = { salt: 'overlook-secrets', infoPrefix: 'overlook/secrets/', prefix: 'v1.' };

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
  private readonly sealers = new Map<string, Sealer>();

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
    const sealed = this.seal(kind, `${kind}/${generation}/${made.kid}`, made.value);
    await insertSecretIfAbsent(this.db, { kind, generation, kid: made.kid, sealed, created_at: new Date().toISOString() });
  }

  /**
   * Seals a secret another feature keeps in its own rows (a camera's password), under the key of `kind`
   * and bound to `boundTo` (where it is kept, e.g. the row's id): moved to another row, it does not open.
   */
  sealValue(kind: string, boundTo: string, value: string): string {
    return this.seal(kind, `${kind}/${boundTo}`, value);
  }

  /** Opens what `sealValue` sealed with the same kind and `boundTo`; throws when it was altered, moved or sealed with another key. */
  openValue(kind: string, boundTo: string, sealed: string): string {
    return this.unsealText(kind, `${kind}/${boundTo}`, sealed);
  }

  /** Whether a stored text is a sealed value (`v1.<iv>.<tag>.<ciphertext>`) rather than a plaintext kept before sealing. */
  static isSealed(text: string): boolean {
    return /^v1\.[\w-]+\.[\w-]+\.[\w-]*$/.test(text);
  }

  private seal(kind: string, aad: string, value: string): string {
    return this.sealerFor(kind).seal(value, aad);
  }

  private unsealText(kind: string, aad: string, sealed: string): string {
    return this.sealerFor(kind).open(sealed, aad);
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
    try {
      return this.unsealText(row.kind, `${row.kind}/${row.generation}/${row.kid}`, row.sealed);
    } catch {
      throw new Error(
        `the stored secret ${row.kind} ${row.kid} cannot be unsealed: it was sealed with another secret key. ` +
          'Every node of one database needs the same OVERLOOK_SECRET_KEY (docs/deploy.md, Secrets).',
      );
    }
  }

  /** One key per kind of secret, so no two purposes share a key. */
  private sealerFor(kind: string): Sealer {
    let sealer = this.sealers.get(kind);
    if (!sealer) {
      sealer = new Sealer(this.secretKey, kind, SECRETS_V1);
      this.sealers.set(kind, sealer);
    }
    return sealer;
  }
}
