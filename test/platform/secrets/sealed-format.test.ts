// The platform's secrets keep the format they were always stored in now that the shared Sealer seals them:
// values sealed by the code before (written out here with its exact derivation) open, and what is sealed
// now opens with that code, so existing databases need nothing done.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertSecretIfAbsent, secretsOfKind } from '../../../src/platform/secrets/secrets-repository.js';
import { SecretStore } from '../../../src/platform/secrets/secret-store.js';
import { createTestDb, type TestDb } from '../../helpers/db.js';

const secretKey = randomBytes(32);

// The sealing as the platform did it before: one HKDF-SHA256 key per kind (salt `overlook-secrets`, info
// `overlook/secrets/<kind>`), AES-256-GCM with a 12-byte IV and the row's place as additional data,
// stored as `v1.<iv>.<tag>.<ciphertext>` in base64url.
const oldKey = (kind: string) => Buffer.from(hkdfSync('sha256', secretKey, 'overlook-secrets', `overlook/secrets/${kind}`, 32));

function oldSeal(kind: string, aad: string, value: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', oldKey(kind), iv);
  cipher.setAAD(Buffer.from(aad));
  const ct = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
}

function oldOpen(kind: string, aad: string, sealed: string): string {
  const [v, iv, tag, ct] = sealed.split('.');
  if (v !== 'v1' || iv === undefined || tag === undefined || ct === undefined) throw new Error('not a sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', oldKey(kind), Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(aad));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
}

describe('sealed secrets stored before the shared Sealer', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb();
  });
  afterAll(async () => t?.cleanup());

  it('a secret row sealed the old way opens, and a new row opens the old way', async () => {
    const created_at = new Date().toISOString();
    const sealed = oldSeal('jwt-signing', 'jwt-signing/1/kid-old', 'the signing key');
    await insertSecretIfAbsent(t.db, { kind: 'jwt-signing', generation: 1, kid: 'kid-old', sealed, created_at });
    const store = new SecretStore(t.db, secretKey);
    expect((await store.list('jwt-signing')).map((s) => s.value)).toEqual(['the signing key']);

    await store.add('jwt-signing', async () => ({ kid: 'kid-new', value: 'the next key' }));
    const [row] = await secretsOfKind(t.db, 'jwt-signing');
    expect(row!.sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(oldOpen('jwt-signing', 'jwt-signing/2/kid-new', row!.sealed)).toBe('the next key');
  });

  it('a value another feature keeps (a camera password) opens both ways, and only in its place', () => {
    const store = new SecretStore(t.db, secretKey);
    const place = 'camera-credentials/camera/c1/password';
    const old = oldSeal('camera-credentials', place, 'hunter2');
    expect(SecretStore.isSealed(old)).toBe(true);
    expect(store.openValue('camera-credentials', 'camera/c1/password', old)).toBe('hunter2');
    const now = store.sealValue('camera-credentials', 'camera/c1/password', 'hunter2');
    expect(SecretStore.isSealed(now)).toBe(true);
    expect(oldOpen('camera-credentials', place, now)).toBe('hunter2');
    expect(() => store.openValue('camera-credentials', 'camera/c2/password', old)).toThrow();
    expect(() => store.openValue('connector-vault', 'camera/c1/password', old)).toThrow();
  });

  it('a row sealed under another key is refused with the message that names the fix', async () => {
    const other = new SecretStore(t.db, randomBytes(32));
    await expect(other.list('jwt-signing')).rejects.toThrow(/Every node of one database needs the same OVERLOOK_SECRET_KEY/);
  });
});
