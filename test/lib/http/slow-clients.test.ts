// Slow and greedy clients (docs/security.md, "Slow clients"): deadlines for headers and bodies, a cap on
// connections per address, and Node's own refusals answered in the error body.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createBaseApp } from '../../../src/lib/http/base-app.js';

let app: FastifyInstance;
let port: number;
beforeAll(async () => {
  app = createBaseApp({ logger: false, bodyLimit: 4096, limits: { headersTimeoutMs: 400, requestTimeoutMs: 800, maxConnectionsPerAddress: 5 } });
  app.get('/health', async () => ({ status: 'ok' }));
  app.post('/echo', async (req) => req.body);
  await app.listen({ host: '127.0.0.1', port: 0 });
  port = (app.server.address() as { port: number }).port;
});
afterAll(() => app.close());

/** Opens a raw connection (optionally from another loopback address), writes `text`, resolves with all it reads until closed. */
function rawClient(text: string, opts: { from?: string; keep?: (s: Socket) => void } = {}): Promise<{ data: string; closedAfterMs: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress: opts.from });
    let data = '';
    socket.on('connect', () => {
      socket.write(text);
      opts.keep?.(socket);
    });
    socket.on('data', (d) => {
      data += d.toString();
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve({ data, closedAfterMs: Date.now() - started }));
    setTimeout(() => reject(new Error(`still open after 10 s; read ${JSON.stringify(data)}`)), 10_000).unref();
  });
}

const bodyOf = (raw: string) => JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));

describe('deadlines', () => {
  it('headers that never finish: 408 in the error body, connection closed', async () => {
    const { data } = await rawClient('GET /health HTTP/1.1\r\nHost: x\r\n');
    expect(data).toMatch(/^HTTP\/1\.1 408 /);
    expect(bodyOf(data)).toEqual({ code: 'REQUEST_TIMEOUT', message: expect.any(String), request_id: expect.any(String) });
  });

  it('a body trickled a byte at a time: 408, connection closed', async () => {
    let timer: NodeJS.Timeout | undefined;
    const { data } = await rawClient('POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{', {
      keep: (s) => {
        timer = setInterval(() => s.writable && s.write(' '), 100);
      },
    });
    clearInterval(timer);
    expect(data).toMatch(/^HTTP\/1\.1 408 /);
    expect(bodyOf(data).code).toBe('REQUEST_TIMEOUT');
  });
});

describe('refusals before a request exists', () => {
  it('oversized headers: 431 HEADERS_TOO_LARGE', async () => {
    const { data } = await rawClient(`GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(data).toMatch(/^HTTP\/1\.1 431 /);
    expect(bodyOf(data).code).toBe('HEADERS_TOO_LARGE');
  });

  it('an unparsable request line: 400 BAD_REQUEST', async () => {
    const { data } = await rawClient('GET /health HTTP/9.9\r\n\r\n');
    expect(data).toMatch(/^HTTP\/1\.1 400 /);
    expect(bodyOf(data).code).toBe('BAD_REQUEST');
  });

  it('a long address: 414 URI_TOO_LONG; bad percent-encoding: 400, both in the error body', async () => {
    const long = await app.inject({ url: `/health?q=${'a'.repeat(9000)}` });
    expect(long.statusCode).toBe(414);
    expect(long.json().code).toBe('URI_TOO_LONG');
    const bad = await app.inject({ url: '/he%E0%A4%Alth' });
    expect(bad.statusCode).toBe(400);
    expect(typeof bad.json().code).toBe('string');
  });
});

describe('connections per address', () => {
  it('an address over the cap is cut at once; other addresses are served', async () => {
    const held: Socket[] = [];
    const opened = await Promise.all(
      Array.from(
        { length: 8 },
        () =>
          new Promise<Socket>((resolve) => {
            const s = connect({ host: '127.0.0.1', port, localAddress: '127.0.0.2' }, () => resolve(s));
            s.on('error', () => {});
            held.push(s);
          }),
      ),
    );
    await new Promise((r) => setTimeout(r, 150));
    const alive = opened.filter((s) => !s.destroyed && s.readyState === 'open');
    expect(alive.length).toBeLessThanOrEqual(5);
    const res = await fetch(`http://127.0.0.1:${port}/health`);
    expect(res.status).toBe(200);
    for (const s of held) s.destroy();
  });
});
