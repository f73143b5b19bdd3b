// The recorder's web UI at `/`: static HTML, browser ES modules and CSS from `public/recorder`, plus
// hls.js served from its npm package (never copied into the repository). No build step. The pages are
// public (the UI itself asks for sign-in and calls the documented `/api` with the access token); they
// stay out of the OpenAPI document, which describes the API only.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';

// Three levels up from src/recorder/web-ui (tsx) and from dist/recorder/web-ui (built) alike.
const ROOT = fileURLToPath(new URL('../../../public/recorder/', import.meta.url));
const HLS_JS = createRequire(import.meta.url).resolve('hls.js/dist/hls.min.mjs');

/**
 * Our own scripts and styles only, never framed. Media comes from the API or from hls.js's
 * MediaSource (`blob:`); snapshots are images from the API. WebRTC is not governed by CSP.
 */
const WEB_UI_CSP = [
  "default-src 'self'",
  "media-src 'self' blob:",
  "img-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export async function webUiRoutes(app: FastifyInstance): Promise<void> {
  await app.register(async (ui) => {
    // Declared public and hidden from the API reference as each route arrives (the auth hook checks
    // every route has a declaration when the server is ready).
    ui.addHook('onRoute', (route) => {
      route.config = { ...(route.config ?? {}), auth: 'public' };
      route.schema = { ...(route.schema ?? {}), hide: true };
    });
    ui.addHook('onSend', async (_req, reply) => {
      reply.header('content-security-policy', WEB_UI_CSP);
      reply.header('x-content-type-options', 'nosniff');
      reply.header('referrer-policy', 'no-referrer');
    });
    await ui.register(fastifyStatic, { root: ROOT, prefix: '/ui/', index: false, wildcard: true });

    // The router ignores trailing slashes: `/` is the page; `/ui` leads there too.
    ui.get('/', (_req, reply) => reply.header('cache-control', 'no-cache').sendFile('index.html'));
    ui.get('/ui', (_req, reply) => reply.redirect('/'));
    let hls: Buffer | undefined;
    ui.get('/ui/vendor/hls.mjs', async (_req, reply) => {
      hls ??= await readFile(HLS_JS);
      return reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(hls);
    });
  });
}
