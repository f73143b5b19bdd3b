// A webhook receiver on a loopback port: records every request with its raw body, and answers what the
// test's `answer` decides (a status, or `hang` to never answer).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

export interface Receiver {
  url: string;
  got: Received[];
  /** Decides each answer; called with the request's index (0-based). */
  answer: (n: number, r: Received) => number | 'hang';
  close(): Promise<void>;
}

export async function startReceiver(answer: Receiver['answer'] = () => 200): Promise<Receiver> {
  const hanging = new Set<import('node:http').ServerResponse>();
  const r: Receiver = { url: '', got: [], answer, close: async () => {} };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rec = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      const n = r.got.length;
      r.got.push(rec);
      const a = r.answer(n, rec);
      if (a === 'hang') hanging.add(res);
      else res.writeHead(a).end();
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  r.close = async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((ok) => server.close(() => ok()));
  };
  return r;
}

/** Polls `ok` until true, failing after `ms`. */
export async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
