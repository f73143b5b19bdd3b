import { describe, expect, it } from 'vitest';
import { API_KEY_LENGTH, API_KEY_PREFIX, generateApiKey, hashApiKey, isWellFormedApiKey, sameHash } from '../../../src/lib/auth/api-key-format.js';

describe('API key values', () => {
  it('have the fixed prefix, 32 random bytes in base62 and a checksum', () => {
    const a = generateApiKey();
    const b = generateApiKey();
    expect(a).not.toBe(b);
    expect(a.startsWith(API_KEY_PREFIX)).toBe(true);
    expect(a).toHaveLength(API_KEY_LENGTH);
    expect(a).toMatch(/^olk_[0-9A-Za-z]+$/);
    expect(isWellFormedApiKey(a)).toBe(true);
  });

  it('refuse any single-character change by the checksum, before any lookup', () => {
    const key = generateApiKey();
    let caught = 0;
    for (let i = API_KEY_PREFIX.length; i < key.length; i++) {
      const c = key[i] === 'a' ? 'b' : 'a';
      if (!isWellFormedApiKey(key.slice(0, i) + c + key.slice(i + 1))) caught++;
    }
    expect(caught).toBe(key.length - API_KEY_PREFIX.length);
    for (const bad of ['', 'olk_', key.slice(0, -1), `${key}A`, key.replace('olk_', 'olq_'), ` ${key}`]) expect(isWellFormedApiKey(bad)).toBe(false);
  });

  it('are stored as SHA-256 and compared in constant time', () => {
    const key = generateApiKey();
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(sameHash(hashApiKey(key), hashApiKey(key))).toBe(true);
    expect(sameHash(hashApiKey(key), hashApiKey(generateApiKey()))).toBe(false);
    expect(sameHash(hashApiKey(key), 'abcd')).toBe(false);
  });

  it('compare hex text and raw bytes alike, down to the last character', () => {
    const hex = hashApiKey(generateApiKey());
    const last = hex.slice(0, -1) + (hex.endsWith('0') ? '1' : '0');
    expect(sameHash(hex, last)).toBe(false);
    expect(sameHash(Buffer.from(hex, 'hex'), hex)).toBe(true);
    expect(sameHash(Buffer.from(hex, 'hex'), Buffer.from(last, 'hex'))).toBe(false);
    expect(sameHash(hex, `${hex}00`)).toBe(false);
  });
});
