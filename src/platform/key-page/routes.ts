// The key-management page (served by `overlook serve`): static files from `public/keys`,
// plain HTML and browser JavaScript that talk to /v2/api-keys with the person's JWT. No build step.
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';

// Three levels up from src/platform/key-page (tsx) and from dist/platform/key-page (built) alike.
const ROOT = fileURLToPath(new URL('../../../public/keys/', import.meta.url));

export async function keyPageRoutes(app: FastifyInstance): Promise<void> {
  // The page's files are public (the page itself asks for sign-in); the child context's onRoute hook
  // declares that, so the access layer's fail-closed check sees a policy on each of them.
  await app.register(async (page) => {
    page.addHook('onRoute', (route) => {
      route.config = { ...(route.config ?? {}), access: { access: 'public' } };
      route.schema = { ...(route.schema ?? {}), hide: true };
    });
    await page.register(fastifyStatic, {
      root: ROOT,
      prefix: '/keys/',
      index: false,
      setHeaders: (res) => {
        // Only our own scripts and styles, never framed: the page handles key values.
        res.header('content-security-policy', "default-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'");
        res.header('x-content-type-options', 'nosniff');
        res.header('referrer-policy', 'no-referrer');
      },
    });
    // The router ignores trailing slashes, so `/keys` and `/keys/` are one route: the page itself.
    page.get('/keys', (_req, reply) => reply.sendFile('index.html'));
  });
}
