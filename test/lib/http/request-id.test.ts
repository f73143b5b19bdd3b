// New request ids (request-id.ts): version 4 UUIDs, random, never repeated, across refills of the pool
// of random bytes they are drawn from.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newRequestId } from '../../../src/lib/http/request-id.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newRequestId', () => {
  it('makes version 4 UUIDs, none twice over many refills of the pool', () => {
    const ids = Array.from({ length: 20_000 }, newRequestId);
    for (const id of ids) expect(id).toMatch(UUID_V4);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('spreads its random digits: every hex digit appears at every random place', () => {
    const ids = Array.from({ length: 4_000 }, newRequestId);
    for (let place = 0; place < 36; place++) {
      if ([8, 13, 14, 18, 19, 23].includes(place)) continue; // dashes, the version and the variant digit
      expect(new Set(ids.map((id) => id[place])).size, `place ${place}`).toBe(16);
    }
  });
});

describe('hijacked replies', () => {
  it('are taken over only through `hijack` (which moves the request id onto the raw response)', () => {
    const src = join(import.meta.dirname, '..', '..', '..', 'src');
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.endsWith(join('http', 'request-id.ts')));
    const direct = files.filter((f) => /\.hijack\(\)/.test(readFileSync(join(src, f), 'utf8')));
    expect(direct).toEqual([]);
  });
});
