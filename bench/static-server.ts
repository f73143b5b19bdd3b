// The yardstick for serving segments: @fastify/static over a folder, in a process of its own, no auth.
// Prints "static listening on <url>" once it listens. Usage: node --import tsx bench/static-server.ts <root>
import Fastify from 'fastify';
import fastifyStatic from '@fastify/static';

const root = process.argv[2];
if (!root) {
  process.stderr.write('usage: static-server.ts <root>\n');
  process.exit(2);
}
const app = Fastify({ logger: false });
await app.register(fastifyStatic, { root, prefix: '/', cacheControl: true, maxAge: 86_400_000, immutable: true });
const url = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`static listening on ${url}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
