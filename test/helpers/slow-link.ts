// A TCP proxy on a loopback port that holds every chunk, each way, for `delayMs` before passing it on:
// a database "far away" from one node (another zone), to show what a node's answer waits for.
import { createConnection, createServer, type Socket } from 'node:net';

export interface SlowLink {
  port: number;
  close(): Promise<void>;
}

/** Forwards `127.0.0.1:<port>` to `host:port`, each chunk delayed by `delayMs` in order. */
export async function startSlowLink(target: { host: string; port: number }, delayMs: number): Promise<SlowLink> {
  const sockets = new Set<Socket>();
  const delayed = (from: Socket, to: Socket) => {
    from.on('data', (chunk) => setTimeout(() => to.destroyed || to.write(chunk), delayMs));
    from.on('end', () => setTimeout(() => to.end(), delayMs));
  };
  const server = createServer((client) => {
    const upstream = createConnection(target);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => {
        sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    delayed(client, upstream);
    delayed(upstream, client);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as { port: number }).port,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
