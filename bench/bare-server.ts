// The yardstick for the request path: a bare Fastify 5 app (the project's own `fastify` package, no
// plugins) with one route answering a camera-shaped JSON object, in a process of its own.
// Prints "bare listening on <url>" once it listens.
// Usage: node --import tsx bench/bare-server.ts <json file> [--log <file>]
// --log <file>: Fastify's default pino request logging (its `logger.file` option, at info), as an
// ordinary service has; without it the logger is off.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: bare-server.ts <camera json file> [--log <file>]\n');
  process.exit(2);
}
const logAt = process.argv.indexOf('--log');
const logFile = logAt > 0 ? process.argv[logAt + 1] : undefined;
const camera = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
const app = Fastify({ logger: logFile ? { level: 'info', file: logFile } : false });
app.get('/v2/cameras/:camera_exid', async () => camera);
const url = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`bare listening on ${url}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
