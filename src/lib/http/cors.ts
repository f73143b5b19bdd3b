// Cross-origin browser access (docs/security.md, "Browsers on other origins"): off unless origins are
// configured; then exactly those origins may call with a credential header and read the headers clients need.
import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

/**
 * Response headers a cross-origin page may read: throttling, exports, paging, WHEP, byte ranges of
 * media files (video players seek with them), and the times and sources that answers of images and
 * recordings carry.
 */
const EXPOSED = [
  ...['retry-after', 'ratelimit', 'ratelimit-policy', 'www-authenticate', 'location', 'content-disposition', 'etag', 'link'],
  ...['content-range', 'accept-ranges', 'content-length'],
  ...['x-start-date', 'x-end-date', 'x-snapshot-date', 'x-timestamp', 'x-bim-date', 'x-thumbnail-source'],
];

export function installCors(app: FastifyInstance, origins: string[]): void {
  if (origins.length === 0) return;
  void app.register(cors, {
    origin: origins,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['authorization', 'x-access-key', 'content-type', 'accept', 'if-none-match', 'range'],
    exposedHeaders: EXPOSED,
    // Credentials travel in headers, never cookies: no ambient authority for other origins.
    credentials: false,
    maxAge: 600,
    strictPreflight: true,
  });
}
