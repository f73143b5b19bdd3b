// A route's answer serialised once per value (serialized-once.ts): the text is what the route's response
// schema makes of the value, with the JSON content type, and a new value object gets new text.
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { serializedOnce } from '../../../src/lib/http/serialized-once.js';

describe('serializedOnce', () => {
  it('sends the schema’s serialisation of the current value, made again for each new value', async () => {
    let current: { name: string; secret?: string } = { name: 'first', secret: 'not in the schema' };
    let serialisations = 0;
    const app = Fastify();
    const send = serializedOnce<typeof current>();
    app.get(
      '/thing',
      {
        schema: { response: { 200: { type: 'object', properties: { name: { type: 'string' } } } } },
        // Counts the route serializer's runs.
        serializerCompiler: () => (data) => {
          serialisations++;
          return JSON.stringify({ name: (data as { name: string }).name });
        },
      },
      (_req, reply) => send(reply, current),
    );
    const get = () => app.inject({ method: 'GET', url: '/thing' });

    const a = await get();
    expect(a.statusCode).toBe(200);
    expect(a.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(a.body).toBe('{"name":"first"}');
    await get();
    expect(serialisations).toBe(1);

    current = { name: 'second' };
    expect((await get()).body).toBe('{"name":"second"}');
    expect(serialisations).toBe(2);
    await app.close();
  });
});
