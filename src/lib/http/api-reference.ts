// The interactive API reference page of a service (Scalar, served from our own node_modules: the page
// loads nothing from another host, so it works offline and tells no third party who reads it).
// Scalar renders one tag at a time, so a large document shows its first operations quickly; the
// measurements behind the choice are in docs/decisions.md.
import scalar from '@scalar/fastify-api-reference';
import type { FastifyInstance, RouteOptions } from 'fastify';

export interface ApiReferenceOptions {
  /** Where the page is served, e.g. `/docs`. */
  routePrefix: `/${string}`;
  /** The OpenAPI document's URL on the same service. */
  documentUrl: string;
  /** The page's title, e.g. `Overlook main API reference`. */
  title: string;
  /** Marks the page's routes as public in the service's own access vocabulary. */
  markPublic: (route: RouteOptions) => void;
}

/**
 * The page runs Scalar's bundle and its inline start-up script, and talks only to its own service:
 * no other host is reachable from it, and no other site may frame it.
 */
const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export async function registerApiReference(app: FastifyInstance, opts: ApiReferenceOptions): Promise<void> {
  // A child context whose onRoute hook declares the page's routes public, so the fail-closed checks
  // of each service see a declaration on every one of them.
  await app.register(async (docs) => {
    docs.addHook('onRoute', opts.markPublic);
    await docs.register(scalar, {
      routePrefix: opts.routePrefix,
      configuration: {
        url: opts.documentUrl,
        pageTitle: opts.title,
        metaData: { title: opts.title },
        // The default fonts come from fonts.scalar.com; the system's fonts are used instead.
        withDefaultFonts: false,
        // The AI agent queries api.scalar.com (through proxy.scalar.com); nothing leaves the server.
        agent: { disabled: true },
        hideClientButton: true,
        showDeveloperTools: 'never',
        documentDownloadType: 'json',
        defaultOpenFirstTag: true,
      },
      hooks: {
        // The script (a few MB) changes only with the package: let browsers keep it for a day.
        onRequest: async (req, reply) => {
          if (req.url.endsWith('/js/scalar.js')) reply.header('cache-control', 'public, max-age=86400');
          else reply.header('content-security-policy', DOCS_CSP);
        },
      },
    });
  });
}
