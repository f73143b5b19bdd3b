// Closing while an answer is still being streamed (docs/deploy.md, Rolling restart): the answer ends
// whole, and close() does not then wait for the client to drop its keep-alive connection, however
// long the client would keep it.
import { Agent, get, type IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createBaseApp } from '../../../src/lib/http/base-app.js';

/** What happens first: `promise` settles, or `ms` pass. */
const within = <T>(promise: Promise<T>, ms: number): Promise<T | 'still waiting'> =>
  Promise.race([promise, new Promise<'still waiting'>((r) => setTimeout(() => r('still waiting'), ms).unref())]);

describe('draining', () => {
  it('a stream in flight when close() starts ends whole, and close() does not wait out the keep-alive', async () => {
    const app = createBaseApp({ logger: false, bodyLimit: 1024 });
    const body = new PassThrough();
    app.get('/stream', async (_req, reply) => reply.type('application/octet-stream').send(body));
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as { port: number };

    // A client that never drops an idle connection on its own.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    // Its headers go out with the first bytes.
    body.write('first half, ');
    const res = await new Promise<IncomingMessage>((resolve, reject) => get({ host: '127.0.0.1', port, path: '/stream', agent }, resolve).on('error', reject));
    expect(res.statusCode).toBe(200);
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    const ended = new Promise((r) => res.on('end', r));
    const socketClosed = new Promise((r) => res.socket.once('close', r));

    const closed = app.close();
    // The stream ends only once close() has closed the idle connections and stopped listening.
    while (app.server.listening) await new Promise((r) => setImmediate(r));
    body.end('second half');
    await ended;
    expect(Buffer.concat(chunks).toString()).toBe('first half, second half');
    // Fastify's keep-alive timeout is 72 s; a test that waited for it would time out.
    expect(await within(closed, 20_000)).not.toBe('still waiting');
    await socketClosed;
    agent.destroy();
  });
});
