// Reading `Authorization: Bearer <token>` (bearer.ts), as every service reads it.
import { describe, expect, it } from 'vitest';
import { bearerToken } from '../../../src/lib/auth/bearer.js';

describe('bearerToken', () => {
  it('takes the scheme in any case, spaces or tabs around the token, and nothing else', () => {
    expect(bearerToken('Bearer abc.def')).toBe('abc.def');
    expect(bearerToken('bearer \t abc  ')).toBe('abc');
    for (const bad of ['', 'Bearer', 'Bearer ', 'Bearer a b', 'Basic abc', 'Bearerabc', 'Bearer abc\u00a0']) expect(bearerToken(bad), bad).toBeUndefined();
  });
});
