// Fail closed: every registered route declares who may call it, and an unclassified route stops the app.
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessLayer } from '../../../src/platform/access-layer/hook.js';
import { policyOf, type RegisteredRoute } from '../../../src/platform/access/registered-route.js';
import { isScope } from '../../../src/platform/access/scopes.js';
import { buildTestPlatform, type TestPlatform } from '../../helpers/platform.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';

let tp: TestPlatform;
beforeAll(async () => {
  tp = await buildTestPlatform();
});
afterAll(() => tp.close());

describe('route classification', () => {
  it('every registered route is classified: public, people only, or scoped with known scopes', () => {
    const routes = servicesOf(tp.app).registeredRoutes;
    expect(routes.length).toBeGreaterThan(30);
    const unclassified = routes.filter((r) => !policyOf(r)).map((r) => `${r.method} ${r.url}`);
    expect(unclassified).toEqual([]);
    for (const r of routes) {
      const p = policyOf(r)!;
      if (p.access === 'scoped') for (const s of p.scopes) expect(isScope(s), `${r.method} ${r.url} names ${s}`).toBe(true);
    }
  });

  it('every /v2 route except login is closed to anonymous callers', () => {
    const open = servicesOf(tp.app)
      .registeredRoutes.filter((r) => r.url.startsWith('/v2') && r.method !== 'HEAD')
      .filter((r) => {
        const p = policyOf(r)!;
        return p.access === 'public' || (p.access === 'people' && p.anonymous);
      })
      .map((r) => `${r.method} ${r.url}`);
    // Provider sign-in and the connectors' OAuth callback: finished by a browser
    // that carries no JWT (the single-use state names the person). Connector webhooks: called by the
    // provider, authenticated by an HMAC signature over the raw body, which only exists after parsing.
    // The leak report: whoever finds a key value may report it, without an account. Pairing a site
    // recorder: it has no credential until the single-use code gives it one (throttled per address).
    // A password reset and its confirmation, an invitation claimed by someone without an account and an
    // unsubscribe link: each is carried by a single-use or signed token from an e-mail, not a session;
    // whether e-mail is on is what the sign-in screen asks before anyone signs in.
    expect(open.sort()).toEqual([
      'GET /v2/auth/provider/:provider/callback',
      'GET /v2/auth/provider/:provider/login',
      'GET /v2/connectors/:provider/callback',
      'GET /v2/mail/status',
      'GET /v2/openapi.json',
      'POST /v2/api-keys/leaks',
      'POST /v2/auth/login',
      'POST /v2/auth/password-reset',
      'POST /v2/auth/password-reset/confirm',
      'POST /v2/connectors/doorbell/webhooks/:link_id',
      'POST /v2/connectors/voyage-control/webhooks/:link_id',
      'POST /v2/invitations/claim',
      'POST /v2/mail/unsubscribe',
      'POST /v2/recorder-links/pair',
    ]);
  });

  const accessDeps = () => {
    const { keys, sessions, directory } = servicesOf(tp.app);
    return { keys, sessions, directory, tokenVerifiers: {} };
  };

  it('the app refuses to start when a route declares no access policy', async () => {
    const registry: RegisteredRoute[] = [];
    const app = Fastify();
    await app.register(accessLayer(accessDeps(), registry));
    app.get('/v2/forgotten', async () => ({ leaked: true }));
    await expect(app.ready()).rejects.toThrow(/routes without an access policy: GET \/v2\/forgotten/);
  });

  it('a route naming an unknown scope cannot be registered', async () => {
    const app = Fastify();
    await app.register(accessLayer(accessDeps(), []));
    await expect(
      (async () => {
        app.get('/v2/typo', { config: { access: { access: 'scoped', scopes: ['camera:liveview' as never] } } }, async () => ({}));
        await app.ready();
      })(),
    ).rejects.toThrow(/unknown scope camera:liveview/);
  });
});
