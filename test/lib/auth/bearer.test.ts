// Reading `Authorization: Bearer <token>` (bearer.ts): the exact reading every service uses, and the quick
// one for cache lookups, which must agree with it wherever the exact one finds a token without whitespace.
import { describe, expect, it } from 'vitest';
import { bearerToken, bearerTokenToLookUp } from '../../../src/lib/auth/bearer.js';

describe('bearerToken', () => {
  it('takes the scheme in any case, spaces or tabs around the token, and nothing else', () => {
    expect(bearerToken('Bearer abc.def')).toBe('abc.def');
    expect(bearerToken('bearer \t abc  ')).toBe('abc');
    for (const bad of ['', 'Bearer', 'Bearer ', 'Bearer a b', 'Basic abc', 'Bearerabc', 'Bearer abc\u00a0']) expect(bearerToken(bad), bad).toBeUndefined();
  });
});

describe('bearerTokenToLookUp', () => {
  it('gives the usual form’s token without the expression, and any other form as bearerToken does', () => {
    expect(bearerTokenToLookUp('Bearer abc.def')).toBe('abc.def');
    expect(bearerTokenToLookUp('bearer abc')).toBe('abc');
    expect(bearerTokenToLookUp('Bearer\tabc ')).toBe('abc');
    expect(bearerTokenToLookUp('Basic abc')).toBeUndefined();
  });

  it('gives a value that holds whitespace for a header that is not a plain token, so no known token matches it', () => {
    for (const h of ['Bearer abc more', 'Bearer abc ', 'Bearer  abc']) {
      expect(bearerTokenToLookUp(h)).not.toBe('abc');
      expect(bearerTokenToLookUp(h)).toMatch(/\s/);
    }
  });
});
