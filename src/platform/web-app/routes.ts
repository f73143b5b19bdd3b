// The people's web app at `/`: static HTML, browser ES modules and CSS from `public/app`, with Preact,
// htm and hls.js served from their npm packages (never copied into the repository). No build step
// (docs/decisions.md says why). The files are public (the app itself asks for sign-in and calls the
// documented API with the person's token); they stay out of the OpenAPI document, which describes the API.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';

// Three levels up from src/platform/web-app (tsx) and from dist/platform/web-app (built) alike.
const ROOT = fileURLToPath(new URL('../../../public/app/', import.meta.url));
const require = createRequire(import.meta.url);

/** The browser modules the app imports by bare name, and the file each name is served from. */
const VENDOR: Record<string, { url: string; file: string }> = {
  preact: { url: '/app/vendor/preact.mjs', file: require.resolve('preact') },
  'preact/hooks': { url: '/app/vendor/preact-hooks.mjs', file: require.resolve('preact/hooks') },
  htm: { url: '/app/vendor/htm.mjs', file: join(dirname(require.resolve('htm')), 'htm.mjs') },
  'hls.js': { url: '/app/vendor/hls.mjs', file: require.resolve('hls.js/dist/hls.min.mjs') },
};

const IMPORT_MAP = JSON.stringify({ imports: Object.fromEntries(Object.entries(VENDOR).map(([name, v]) => [name, v.url])) });
// The import map is the page's one inline script; the policy allows exactly it by its hash.
const IMPORT_MAP_HASH = `'sha256-${createHash('sha256').update(IMPORT_MAP).digest('base64')}'`;

/**
 * Our own scripts and styles only, never framed. Media comes from the API (images, HLS segments) or
 * from hls.js's MediaSource (`blob:`).
 */
const WEB_APP_CSP = [
  "default-src 'self'",
  `script-src 'self' ${IMPORT_MAP_HASH}`,
  "media-src 'self' blob:",
  "img-src 'self' blob: data:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export async function webAppRoutes(app: FastifyInstance): Promise<void> {
  const page = (await readFile(join(ROOT, 'index.html'), 'utf8')).replace('<!-- import-map -->', `<script type="importmap">${IMPORT_MAP}</script>`);
  await app.register(async (web) => {
    // Declared public and hidden from the API reference as each route arrives, so the access layer's
    // fail-closed check sees a policy on each of them.
    web.addHook('onRoute', (route) => {
      route.config = { ...(route.config ?? {}), access: { access: 'public' } };
      route.schema = { ...(route.schema ?? {}), hide: true };
    });
    web.addHook('onSend', async (_req, reply) => {
      reply.header('content-security-policy', WEB_APP_CSP);
      reply.header('x-content-type-options', 'nosniff');
      reply.header('referrer-policy', 'no-referrer');
    });
    await web.register(fastifyStatic, { root: ROOT, prefix: '/app/', index: false, wildcard: true, cacheControl: false });

    web.get('/', (_req, reply) => reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(page));
    // Browsers ask for /favicon.ico on pages that name no icon (the key page, the API reference, JSON
    // opened in a tab): the app's icon, as SVG, which every current browser takes from this path.
    const favicon = await readFile(join(ROOT, 'favicon.svg'));
    web.get('/favicon.ico', (_req, reply) => reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(favicon));
    const vendorFiles = new Map<string, Buffer>();
    for (const { url, file } of Object.values(VENDOR)) {
      web.get(url, async (_req, reply) => {
        let body = vendorFiles.get(file);
        if (!body) {
          body = await readFile(file);
          vendorFiles.set(file, body);
        }
        return reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(body);
      });
    }
  });
}
