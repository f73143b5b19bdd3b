import { describe, expect, it } from 'vitest';
import { boundedMemo } from '../../../src/lib/cache/index.js';

describe('boundedMemo', () => {
  it('makes a value once per key and keeps only the last max keys', () => {
    const memo = boundedMemo<string>(2);
    let made = 0;
    const make = (k: string) => () => `${k}${++made}`;
    expect(memo('a', make('a'))).toBe('a1');
    expect(memo('a', make('a'))).toBe('a1');
    memo('b', make('b'));
    memo('c', make('c'));
    expect(memo('a', make('a'))).toBe('a4');
  });
});
