// A node that gets SIGTERM (docs/deploy.md, Rolling restart): `/ready` answers while it serves; a request
// already in flight finishes; a request that then arrives on the same keep-alive connection gets our 503
// body with Retry-After and `Connection: close`, not Fastify's bare 503; the process exits 0.
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { SLOW, serve, tempDir } from '../helpers/cli.js';

/** What the server sends on `socket`: so far, and everything once it closes the connection. */
function received(socket: Socket): { sofar: () => string; all: Promise<string> } {
  let data = '';
  socket.setEncoding('utf8');
  socket.on('data', (d) => (data += d));
  const all = new Promise<string>((resolve, reject) => {
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
  });
  return { sofar: () => data, all };
}

async function waitFor(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('overlook serve: readiness and draining', () => {
  it(
    'is ready, then on SIGTERM finishes the request in flight and answers the next one 503 with Retry-After',
    async () => {
      const node = await serve(['serve', '--port', '0', '--data-dir', tempDir()]);
      const ready = await fetch(`${node.url}/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ready' });

      const { hostname, port } = new URL(node.url);
      const socket = connect(Number(port), hostname);
      await new Promise((r) => socket.once('connect', r));
      const answers = received(socket);
      // A sign-in whose body has only half arrived: in flight when the signal comes. Its
      // "100 Continue" says the server has taken the request in before the signal is sent.
      const body = JSON.stringify({ username: 'nobody@example.com', password: 'not-the-password' });
      const half = Math.floor(body.length / 2);
      socket.write(
        `POST /v2/auth/login HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`,
      );
      await waitFor(() => answers.sofar().startsWith('HTTP/1.1 100 Continue\r\n\r\n'), 'the server to take the request in');
      socket.write(body.slice(0, half));
      const exited = node.stop();
      await waitFor(() => node.output().includes('SIGTERM, shutting down'), 'the shutdown message');
      // The rest of the body, and a second request on the same connection right behind it.
      socket.write(`${body.slice(half)}GET /v2/auth/options HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`);
      const raw = (await answers.all).replace('HTTP/1.1 100 Continue\r\n\r\n', '');
      const [first, second] = raw.split(/(?=HTTP\/1\.1 )/);
      expect(first).toMatch(/^HTTP\/1\.1 401 /);
      expect(second).toMatch(/^HTTP\/1\.1 503 /);
      expect(second).toMatch(/\r\nretry-after: 1\r\n/i);
      expect(second).toMatch(/\r\nconnection: close\r\n/i);
      const json = JSON.parse(second?.split('\r\n\r\n')[1] ?? '') as { code: string; message: string };
      expect(json.code).toBe('SERVICE_UNAVAILABLE');
      expect(json.message).toMatch(/shutting down/);
      expect(await exited).toBe(0);
    },
    SLOW,
  );
});
