// Request ids (request-id.ts): a safe x-request-id is kept, anything else is replaced by a random UUID;
// routes take a reply over only through `hijack`.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { installRequestIdHeader, requestIdOptions } from '../../../src/lib/http/request-id.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('the request id', () => {
  it('keeps a safe x-request-id and replaces a missing or unsafe one with a new UUID', async () => {
    const app = Fastify({ logger: false, ...requestIdOptions });
    installRequestIdHeader(app);
    app.get('/', async (req) => ({ id: req.id }));
    const idOf = async (headers: Record<string, string>) => {
      const res = await app.inject({ method: 'GET', url: '/', headers });
      expect(res.headers['x-request-id']).toBe(res.json().id);
      return res.json().id as string;
    };
    expect(await idOf({ 'x-request-id': 'abc-1.2_3' })).toBe('abc-1.2_3');
    expect(await idOf({})).toMatch(UUID_V4);
    expect(await idOf({ 'x-request-id': 'has space' })).toMatch(UUID_V4);
    expect(await idOf({ 'x-request-id': 'x'.repeat(65) })).toMatch(UUID_V4);
    expect(await idOf({})).not.toBe(await idOf({}));
    await app.close();
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
