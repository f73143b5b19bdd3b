// Answers written together (coalesced-writes.ts): the first whole answer of a turn of the event loop goes
// out at once, the others made in the same turn at its end, in the order they were made; streams are never
// held. Over real HTTP, concurrent and pipelined requests each get their own answer, in order.
import { connect } from 'node:net';
import { Readable } from 'node:stream';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createBaseApp } from '../../../src/lib/http/base-app.js';
import { coalesceWrites } from '../../../src/lib/http/coalesced-writes.js';

type Hook = (req: unknown, reply: FastifyReply, payload: unknown, done: (err: Error | null, payload?: unknown) => void) => void;

/** The onSend hook `coalesceWrites` installs, taken from a stand-in app. */
function theHook(): Hook {
  let hook: Hook | undefined;
  coalesceWrites({ addHook: (_name: string, h: Hook) => (hook = h) } as unknown as FastifyInstance);
  return hook!;
}

const endOfTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A reply stand-in that records what the hook did to it. */
function fakeReply() {
  const seen = { destroyed: undefined as Error | undefined, logged: [] as unknown[] };
  const reply = {
    log: { error: (o: unknown) => seen.logged.push(o) },
    raw: { destroy: (err: Error) => (seen.destroyed = err) },
  } as unknown as FastifyReply;
  return { reply, seen };
}

describe('coalesceWrites', () => {
  it('writes the turn’s first whole answer at once and the rest at the turn’s end, in order', async () => {
    const hook = theHook();
    await endOfTurn();
    const written: string[] = [];
    const done = (err: Error | null, payload?: unknown) => {
      expect(err).toBeNull();
      written.push(String(payload));
    };
    hook({}, fakeReply().reply, 'first', done);
    hook({}, fakeReply().reply, Buffer.from('second'), done);
    hook({}, fakeReply().reply, undefined, done);
    hook({}, fakeReply().reply, 'fourth', done);
    expect(written).toEqual(['first']);
    await endOfTurn();
    expect(written).toEqual(['first', 'second', 'undefined', 'fourth']);

    // A new turn: its first answer goes out at once again.
    hook({}, fakeReply().reply, 'next turn', done);
    expect(written.at(-1)).toBe('next turn');
    await endOfTurn();
  });

  it('never holds a stream', async () => {
    const hook = theHook();
    await endOfTurn();
    const written: unknown[] = [];
    const done = (_err: Error | null, payload?: unknown) => written.push(payload);
    const stream = Readable.from(['a']);
    hook({}, fakeReply().reply, 'first', done);
    hook({}, fakeReply().reply, stream, done);
    expect(written).toEqual(['first', stream]);
    await endOfTurn();
  });

  it('closes the connection of an answer that fails to be written, and writes the others', async () => {
    const hook = theHook();
    await endOfTurn();
    const written: unknown[] = [];
    const failing = fakeReply();
    hook({}, fakeReply().reply, 'first', (_e, p) => written.push(p));
    hook({}, failing.reply, 'fails', () => {
      throw new Error('cannot write');
    });
    hook({}, fakeReply().reply, 'third', (_e, p) => written.push(p));
    await endOfTurn();
    expect(written).toEqual(['first', 'third']);
    expect(failing.seen.destroyed?.message).toBe('cannot write');
    expect(failing.seen.logged).toHaveLength(1);
  });
});

describe('coalesceWrites over HTTP', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  async function echoServer(): Promise<{ port: number }> {
    app = Fastify();
    coalesceWrites(app);
    app.get('/echo/:n', async (req) => ({ n: (req.params as { n: string }).n }));
    app.get('/stream', (_req, reply) => reply.type('text/plain').send(Readable.from(['str', 'eam'])));
    await app.listen({ host: '127.0.0.1', port: 0 });
    return { port: (app.server.address() as { port: number }).port };
  }

  it('gives each of many concurrent requests its own answer', async () => {
    const { port } = await echoServer();
    const ns = Array.from({ length: 200 }, (_, i) => String(i));
    const bodies = await Promise.all(ns.map(async (n) => (await fetch(`http://127.0.0.1:${port}/echo/${n}`)).json()));
    expect(bodies).toEqual(ns.map((n) => ({ n })));
    expect(await (await fetch(`http://127.0.0.1:${port}/stream`)).text()).toBe('stream');
  });

  it('is how every service’s app writes its answers', async () => {
    app = createBaseApp({ bodyLimit: 1024, logger: false });
    // Whether each answer had been written when `send` returned, in the order the requests came.
    const writtenAtOnce: boolean[] = [];
    app.get('/now', (_req, reply) => {
      reply.send({ ok: true });
      writtenAtOnce.push(reply.raw.writableEnded);
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const socket = connect((app.server.address() as { port: number }).port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.write('GET /now HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(3));
    await expect.poll(() => received.match(/\{"ok":true\}/g)?.length ?? 0).toBe(3);
    expect(writtenAtOnce).toEqual([true, false, false]);
    socket.destroy();
  });

  it('answers pipelined requests on one connection in order', async () => {
    const { port } = await echoServer();
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    // Sent in one write, so the server reads them in one turn: one answer at once, the others held.
    socket.write(['a', 'b', 'c', 'd'].map((n) => `GET /echo/${n} HTTP/1.1\r\nHost: x\r\n\r\n`).join(''));
    await expect.poll(() => received.match(/\{"n":"\w"\}/g)?.length ?? 0).toBe(4);
    expect(received.match(/\{"n":"\w"\}/g)).toEqual(['{"n":"a"}', '{"n":"b"}', '{"n":"c"}', '{"n":"d"}']);
    socket.destroy();
  });
});
