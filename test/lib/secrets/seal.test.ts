// Sealed secrets open only with their key and in their place; the key file is made once, private.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadKeyFile } from '../../../src/lib/secrets/key-file.js';
import { Sealer } from '../../../src/lib/secrets/seal.js';

const dir = mkdtempSync(join(tmpdir(), 'overlook-seal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('Sealer', () => {
  const key = Buffer.alloc(32, 7);
  it('seals to text without the plaintext that opens only with the same key, purpose and place', () => {
    const s = new Sealer(key, 'test');
    const sealed = s.seal('camera password', 'devices/1');
    expect(Sealer.isSealed(sealed)).toBe(true);
    expect(sealed).not.toContain('camera password');
    expect(s.open(sealed, 'devices/1')).toBe('camera password');
    expect(() => s.open(sealed, 'devices/2')).toThrow(/cannot be unsealed/);
    expect(() => new Sealer(Buffer.alloc(32, 8), 'test').open(sealed, 'devices/1')).toThrow(/cannot be unsealed/);
    expect(() => new Sealer(key, 'other').open(sealed, 'devices/1')).toThrow(/cannot be unsealed/);
  });
});

describe('loadKeyFile', () => {
  it('takes a given base64 key, refuses a wrong length, and otherwise makes one file (0600) and keeps it', () => {
    const given = Buffer.alloc(32, 1);
    const file = join(dir, 'k.key');
    expect(loadKeyFile({ base64: given.toString('base64'), file, envName: 'K' })).toEqual(given);
    expect(() => loadKeyFile({ base64: 'c2hvcnQ=', file, envName: 'K' })).toThrow(/K must be/);
    const made = loadKeyFile({ file, envName: 'K' });
    expect(made.length).toBe(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadKeyFile({ file, envName: 'K' })).toEqual(made);
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')).toEqual(made);
  });
});
