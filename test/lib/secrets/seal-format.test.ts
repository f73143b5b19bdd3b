// The recorder's sealed values keep their format: what the Sealer sealed before it took a format
// (written out here with its exact derivation) opens, and what it seals now opens that way.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Sealer } from '../../../src/lib/secrets/seal.js';

const secretKey = randomBytes(32);
// Before: HKDF-SHA256 salt `overlook-sealed`, info `overlook/sealed/<purpose>`, AES-256-GCM with a 12-byte
// IV and the place as additional data, stored as `sealed:v1.<iv>.<tag>.<ciphertext>` in base64url.
const oldKey = (purpose: string) => Buffer.from(hkdfSync('sha256', secretKey, 'overlook-sealed', `overlook/sealed/${purpose}`, 32));

function oldSeal(purpose: string, place: string, value: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', oldKey(purpose), iv);
  cipher.setAAD(Buffer.from(place));
  const ct = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  return `sealed:v1.${[iv, cipher.getAuthTag(), ct].map((b) => b.toString('base64url')).join('.')}`;
}

function oldOpen(purpose: string, place: string, sealed: string): string {
  const [iv, tag, ct] = sealed.slice('sealed:v1.'.length).split('.');
  const decipher = createDecipheriv('aes-256-gcm', oldKey(purpose), Buffer.from(iv!, 'base64url'));
  decipher.setAAD(Buffer.from(place));
  decipher.setAuthTag(Buffer.from(tag!, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ct!, 'base64url')), decipher.final()]).toString('utf8');
}

describe('the default sealed format', () => {
  it('opens what was sealed before and seals what the old way opens', () => {
    const s = new Sealer(secretKey, 'recorder/device-credentials');
    const old = oldSeal('recorder/device-credentials', 'devices/d1', '{"password":"x"}');
    expect(Sealer.isSealed(old)).toBe(true);
    expect(s.open(old, 'devices/d1')).toBe('{"password":"x"}');
    expect(oldOpen('recorder/device-credentials', 'devices/d1', s.seal('{"password":"y"}', 'devices/d1'))).toBe('{"password":"y"}');
  });

  it('a Sealer in another format neither opens nor is taken for the default', () => {
    const other = new Sealer(secretKey, 'recorder/device-credentials', { salt: 'overlook-secrets', infoPrefix: 'overlook/secrets/', prefix: 'v1.' });
    const sealed = other.seal('x', 'devices/d1');
    expect(sealed.startsWith('v1.')).toBe(true);
    expect(Sealer.isSealed(sealed)).toBe(false);
    expect(other.open(sealed, 'devices/d1')).toBe('x');
    expect(() => new Sealer(secretKey, 'recorder/device-credentials').open(sealed, 'devices/d1')).toThrow(/not a sealed value/);
    expect(() => other.open(oldSeal('recorder/device-credentials', 'devices/d1', 'x'), 'devices/d1')).toThrow();
  });
});
