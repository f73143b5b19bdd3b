// The yardstick for the request path: a bare Fastify 5 app (the project's own `fastify` package, no
// plugins, logger off) with one route answering a camera-shaped JSON object, in a process of its own.
// Prints "bare listening on <url>" once it listens. Usage: node --import tsx bench/bare-server.ts <json file> [--together]
// --together: the one thing the platform does to its answers that Fastify does not (answers made in one turn
// of the event loop written together, src/lib/http/coalesced-writes.ts), so a ratio to it shows the
// platform's own work without that gain.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import { coalesceWrites } from '../src/lib/http/coalesced-writes.js';

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: bare-server.ts <camera json file>\n');
  process.exit(2);
}
const camera = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
const app = Fastify({ logger: false });
if (process.argv.includes('--together')) coalesceWrites(app);
app.get('/v2/cameras/:camera_exid', async () => camera);
const url = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`bare listening on ${url}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
