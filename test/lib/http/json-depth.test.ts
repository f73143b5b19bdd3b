// The JSON depth is counted on the raw text, strings and escapes skipped, without recursion.
import { describe, expect, it } from 'vitest';
import { jsonDepth } from '../../../src/lib/http/json-depth.js';

describe('jsonDepth', () => {
  it('counts nesting of objects and arrays, not brackets inside strings', () => {
    expect(jsonDepth('1')).toBe(0);
    expect(jsonDepth('{"a":[1,{"b":2}]}')).toBe(3);
    expect(jsonDepth('{"a":"[[[[{{{{\\"[["}')).toBe(1);
    expect(jsonDepth('['.repeat(100_000) + ']'.repeat(100_000))).toBe(100_000);
  });
});
