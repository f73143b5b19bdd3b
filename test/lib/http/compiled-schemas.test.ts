// Route schemas compiled once per process (src/lib/http/compiled-schemas.ts): two apps with equal
// schemas, built inline as distinct objects, share the compiled validator and serializer; a schema that
// says something else gets its own; each app still validates and serializes by its schema.
import { Type } from 'typebox';
import { afterAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildSharedSerializer } from '../../../src/lib/http/compiled-schemas.js';
import { createBaseApp } from '../../../src/lib/http/base-app.js';

const apps: FastifyInstance[] = [];
afterAll(async () => {
  for (const app of apps) await app.close();
});

/** An app with one route, its schemas made afresh (as a feature plugin does per build). */
async function app(field: 'name' | 'title') {
  const a = createBaseApp({ logger: false, bodyLimit: 1024 });
  a.post(
    '/echo',
    {
      schema: {
        body: Type.Object({ [field]: Type.String({ minLength: 2 }) }),
        response: { 200: Type.Object({ [field]: Type.String() }) },
      },
    },
    async (req) => ({ ...(req.body as object), secret: 'not in the schema' }),
  );
  await a.ready();
  apps.push(a);
  return a;
}

describe('compiled schemas', () => {
  it('apps with equal schemas validate and serialize alike, each by its schema', async () => {
    const [a, b, c] = [await app('name'), await app('name'), await app('title')];
    for (const x of [a, b]) {
      const ok = await x.inject({ method: 'POST', url: '/echo', payload: { name: 'Ann' } });
      expect(ok.json()).toEqual({ name: 'Ann' });
      expect((await x.inject({ method: 'POST', url: '/echo', payload: { name: 'A' } })).statusCode).toBe(400);
    }
    expect((await c.inject({ method: 'POST', url: '/echo', payload: { title: 'Boss' } })).json()).toEqual({ title: 'Boss' });
    expect((await c.inject({ method: 'POST', url: '/echo', payload: { name: 'Ann' } })).statusCode).toBe(400);
  });

  it('one serializer per distinct schema and set of shared schemas', () => {
    const route = (schema: unknown) => ({ method: 'GET', url: '/', httpStatus: '200', schema });
    const shared = { Err: { $id: 'Err', type: 'object', properties: { code: { type: 'string' } } } };
    const one = buildSharedSerializer(shared, {})(route({ type: 'object', properties: { a: { type: 'string' } } }));
    const same = buildSharedSerializer({ ...shared }, {})(route({ type: 'object', properties: { a: { type: 'string' } } }));
    const other = buildSharedSerializer(shared, {})(route({ type: 'object', properties: { b: { type: 'string' } } }));
    const otherShared = buildSharedSerializer({}, {})(route({ type: 'object', properties: { a: { type: 'string' } } }));
    expect(same).toBe(one);
    expect(other).not.toBe(one);
    expect(otherShared).not.toBe(one);
    expect(one({ a: 'x', b: 'y' })).toBe('{"a":"x"}');
    expect(other({ a: 'x', b: 'y' })).toBe('{"b":"y"}');
  });
});
