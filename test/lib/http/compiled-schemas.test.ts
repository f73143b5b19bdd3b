// Route schemas compiled on first use, once per process (src/lib/http/compiled-schemas.ts): two apps
// with equal schemas, built inline as distinct objects, share the compiled validator and serializer; a
// schema that says something else gets its own; nothing is compiled before a route's first request;
// each app still validates and serializes by its schema.
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { Ajv } from 'ajv';
import { Type } from 'typebox';
import { afterAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { sharedSerializers } from '../../../src/lib/http/compiled-schemas.js';
import { createBaseApp } from '../../../src/lib/http/base-app.js';
import { compiledOnFirstCall } from '../../../src/lib/http/validation.js';

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

  it('one serializer per distinct schema and set of shared schemas, compiled on its first call', () => {
    const compiled: unknown[] = [];
    const select = SerializerSelector();
    const build = sharedSerializers((external, options) => {
      const compile = select(external, options);
      return (route) => {
        compiled.push(route.schema);
        return compile(route);
      };
    });
    const route = (schema: unknown) => ({ method: 'GET', url: '/', httpStatus: '200', schema });
    const shared = { Err: { $id: 'Err', type: 'object', properties: { code: { type: 'string' } } } };
    const one = build(shared, {})(route({ type: 'object', properties: { a: { type: 'string' } } }));
    const same = build({ ...shared }, {})(route({ type: 'object', properties: { a: { type: 'string' } } }));
    const other = build(shared, {})(route({ type: 'object', properties: { b: { type: 'string' } } }));
    const otherShared = build({}, {})(route({ type: 'object', properties: { a: { type: 'string' } } }));
    expect(compiled).toHaveLength(0);
    expect(one({ a: 'x', b: 'y' })).toBe('{"a":"x"}');
    expect(same({ a: 'z', b: 'y' })).toBe('{"a":"z"}');
    expect(one({ a: 'w' })).toBe('{"a":"w"}');
    expect(compiled).toHaveLength(1);
    expect(other({ a: 'x', b: 'y' })).toBe('{"b":"y"}');
    expect(otherShared({ a: 'x', b: 'y' })).toBe('{"a":"x"}');
    expect(compiled).toHaveLength(3);
  });

  it('a validator is compiled on its first call, once, and passes on Ajv’s errors', () => {
    const ajv = new Ajv();
    let compiles = 0;
    const validate = compiledOnFirstCall(() => {
      compiles += 1;
      return ajv.compile({ type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] });
    });
    expect(compiles).toBe(0);
    expect(validate({ n: 'x' })).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ instancePath: '/n', message: 'must be integer' });
    expect(validate({ n: 2 })).toBe(true);
    expect(validate.errors).toBeNull();
    expect(compiles).toBe(1);
  });
});
