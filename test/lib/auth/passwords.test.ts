// Passwords (src/lib/auth/passwords.ts): argon2id at OWASP's parameters, verified against the right
// password only; a stored value that is no hash at all is a mismatch, not an error. (The test helper's
// people carry a lighter hash: this is where the platform's own parameters are checked.)
import { describe, expect, it } from 'vitest';
import { dummyHash, hashPassword, verifyPassword } from '../../../src/lib/auth/passwords.js';

describe('passwords', () => {
  it('hashes with argon2id at 19 MiB, 2 passes, 1 lane, salted', async () => {
    const [a, b] = await Promise.all([hashPassword('correct horse'), hashPassword('correct horse')]);
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(a).not.toBe(b);
  });

  it('verifies the right password only', async () => {
    const stored = await hashPassword('correct horse');
    expect(await verifyPassword(stored, 'correct horse')).toBe(true);
    expect(await verifyPassword(stored, 'correct horsE')).toBe(false);
    expect(await verifyPassword('not a hash', 'correct horse')).toBe(false);
    expect(await dummyHash()).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });
});
