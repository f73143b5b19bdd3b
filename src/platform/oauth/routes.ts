// Mounts the OAuth authorization server (oidc-provider, a Koa app) inside the main API's Fastify app,
// under the access layer like every other route:
// - its metadata (RFC 8414) at /.well-known/oauth-authorization-server and its JWKS: public;
// - every other endpoint under /oauth (authorize, token, registration, revocation…) and the sign-in and
//   consent pages: people-only, anonymous welcome — so a valid API key is refused 403
//   ENDPOINT_CLOSED_TO_KEYS before the provider sees the request (docs/access-model.md).
// The provider reads the raw request body itself, so this context parses none.
import { parse as parseQuery } from 'node:querystring';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type { InteractionDetails } from 'oidc-provider';
import { peopleOnly, publicRoute } from '../access/index.js';
import { dummyHash, verifyPassword } from '../../lib/auth/passwords.js';
import { hijack } from '../../lib/http/request-id.js';
import { normaliseEmail, findUserByEmail, findUserById } from '../users/index.js';
import { logActivity } from '../auth/index.js';
import { defineRoutes } from '../plugins/feature.js';
import { OAUTH_PREFIX, type OauthServer } from './oauth-server.js';
import { renderConsentPage, renderErrorPage, renderLoginPage } from './pages.js';
import { CLIENT_LIMITS } from './client-registration.js';

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'] as const;
const hidden = { hide: true };

/** Hands the request to the provider as if it were mounted at `mountPath` (what Express's `use` would do). */
function handToProvider(server: OauthServer, req: FastifyRequest, reply: FastifyReply, path: string, mountPath = OAUTH_PREFIX): void {
  const raw = req.raw as IncomingMessage & { originalUrl?: string };
  const query = raw.url!.includes('?') ? raw.url!.slice(raw.url!.indexOf('?')) : '';
  raw.originalUrl = `${mountPath}${path}${query}`;
  raw.url = `${path}${query}`;
  hijack(reply);
  server.provider.callback()(raw, reply.raw);
}

/** The host a client sends the person back to (from the request's redirect URI, or the client's only one), as the pages name it. */
function redirectTarget(requested: unknown, registered: unknown): string {
  const uris = Array.isArray(registered) ? registered.filter((u): u is string => typeof u === 'string') : [];
  const uri = typeof requested === 'string' ? requested : uris.length === 1 ? uris[0]! : '';
  try {
    const u = new URL(uri);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.host : `${u.protocol}//${u.host}`;
  } catch {
    return 'the application';
  }
}

const html = (reply: FastifyReply, status: number, body: string) =>
  reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header(
      'content-security-policy',
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http: https:; frame-ancestors 'none'; base-uri 'none'",
    )
    .header('x-frame-options', 'DENY')
    .send(body);

export const oauthRoutes = defineRoutes('oauth-routes', ['oauth', 'db', 'loginThrottle', 'audit'], async (app, { oauth: server, db, loginThrottle, audit }) => {
  // Bodies stay unread here: the provider parses its own (form and JSON) from the raw stream,
  // and the interaction forms are parsed by the handlers below.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));

  // RFC 8414 metadata at the issuer's well-known address: the provider's discovery document.
  app.get('/.well-known/oauth-authorization-server', { config: { access: publicRoute() }, schema: hidden }, (req, reply) =>
    handToProvider(server, req, reply, '/.well-known/openid-configuration'),
  );
  app.get('/.well-known/openid-configuration', { config: { access: publicRoute() }, schema: hidden }, (req, reply) =>
    handToProvider(server, req, reply, '/.well-known/openid-configuration'),
  );
  app.get(`${OAUTH_PREFIX}/jwks`, { config: { access: publicRoute() }, schema: hidden }, (req, reply) => handToProvider(server, req, reply, '/jwks'));

  // Open registration (RFC 7591): throttled per address and bounded in size before the provider reads
  // it (client-registration.ts); the provider checks the metadata itself.
  app.post(`${OAUTH_PREFIX}/reg`, { config: { access: peopleOnly({ anonymous: true }) }, schema: hidden }, async (req, reply) => {
    const refuse = (status: number, error: string, description: string, headers: Record<string, string> = {}) =>
      reply
        .code(status)
        .headers({ ...headers, 'cache-control': 'no-store' })
        .send({ error, error_description: description });
    let wait: number;
    try {
      wait = await server.registrations.take(req.ip);
    } catch (err) {
      req.log.error({ err }, 'oauth: could not count a client registration');
      return refuse(503, 'temporarily_unavailable', 'Registration is unavailable for a moment; try again shortly', { 'retry-after': '2' });
    }
    if (wait > 0)
      return refuse(429, 'too_many_requests', `Too many client registrations from this address; try again in ${wait} s`, { 'retry-after': String(wait) });
    const length = Number(req.headers['content-length']);
    if (!Number.isInteger(length) || length > CLIENT_LIMITS.bodyBytes) {
      return refuse(400, 'invalid_client_metadata', `The registration must be sent with a Content-Length of at most ${CLIENT_LIMITS.bodyBytes} bytes`);
    }
    server.registrations.sweepNowAndThen();
    handToProvider(server, req, reply, '/reg');
  });

  // Everything else of the provider: authorize (and its resume), token, registration, revocation, userinfo…
  app.route({
    method: [...METHODS],
    url: `${OAUTH_PREFIX}/*`,
    config: { access: peopleOnly({ anonymous: true }) },
    schema: hidden,
    handler: (req, reply) => handToProvider(server, req, reply, req.raw.url!.split('?')[0]!.slice(OAUTH_PREFIX.length)),
  });

  // The interaction: sign-in, then consent. Same access rule: people only, anonymous welcome.
  const interactionRoute = { config: { access: peopleOnly({ anonymous: true }) }, schema: hidden };

  const details = async (req: FastifyRequest, reply: FastifyReply): Promise<InteractionDetails | null> => {
    try {
      const d = await server.provider.interactionDetails(req.raw, reply.raw);
      const uid = (req.params as { uid: string }).uid;
      return d.uid === uid ? d : null;
    } catch {
      return null;
    }
  };
  const expired = (reply: FastifyReply) => html(reply, 400, renderErrorPage('This sign-in has expired or was already used. Start again from the app.'));
  const clientName = async (d: InteractionDetails) => {
    const client = await server.provider.Client.find(String(d.params.client_id ?? ''));
    const meta = client?.metadata() ?? {};
    return {
      name: (meta.client_name as string | undefined) ?? client?.clientId ?? 'An application',
      uri: meta.client_uri as string | undefined,
      // Where the person is sent after answering, named on the page before anything is sent there.
      redirectTo: redirectTarget(d.params.redirect_uri, meta.redirect_uris),
    };
  };
  const form = (req: FastifyRequest): Promise<Record<string, string>> =>
    new Promise((resolve, reject) => {
      let size = 0;
      const chunks: Buffer[] = [];
      req.raw.on('data', (c: Buffer) => {
        size += c.length;
        if (size > 16 * 1024) reject(new Error('form too large'));
        else chunks.push(c);
      });
      req.raw.on('end', () => {
        const q = parseQuery(Buffer.concat(chunks).toString('utf8'));
        resolve(Object.fromEntries(Object.entries(q).map(([k, v]) => [k, Array.isArray(v) ? (v[0] ?? '') : (v ?? '')])));
      });
      req.raw.on('error', reject);
    });

  app.get<{ Params: { uid: string } }>(`${OAUTH_PREFIX}/interaction/:uid`, interactionRoute, async (req, reply) => {
    const d = await details(req, reply);
    if (!d) return expired(reply);
    const client = await clientName(d);
    if (d.prompt.name === 'login') return html(reply, 200, renderLoginPage({ uid: d.uid, clientName: client.name, redirectTo: client.redirectTo }));
    if (d.prompt.name === 'consent') {
      const accountId = d.session?.accountId;
      const user = accountId ? await findUserById(db, accountId) : undefined;
      if (!user) return expired(reply);
      const det = d.prompt.details as { missingOIDCScope?: string[]; missingResourceScopes?: Record<string, string[]> };
      const scopes = new Set<string>(det.missingOIDCScope ?? []);
      for (const s of Object.values(det.missingResourceScopes ?? {})) for (const x of s) scopes.add(x);
      if (scopes.size === 0)
        for (const s of String(d.params.scope ?? '')
          .split(' ')
          .filter(Boolean))
          scopes.add(s);
      return html(
        reply,
        200,
        renderConsentPage({
          uid: d.uid,
          clientName: client.name,
          clientUri: client.uri,
          redirectTo: client.redirectTo,
          email: user.email,
          scopes: [...scopes],
          resources: Object.keys(det.missingResourceScopes ?? {}),
        }),
      );
    }
    return html(reply, 400, renderErrorPage(`Unsupported step ${d.prompt.name}`));
  });

  app.post<{ Params: { uid: string } }>(`${OAUTH_PREFIX}/interaction/:uid/login`, interactionRoute, async (req, reply) => {
    const d = await details(req, reply);
    if (d?.prompt.name !== 'login') return expired(reply);
    let body: Record<string, string>;
    try {
      body = await form(req);
    } catch {
      return html(reply, 413, renderErrorPage('The form was too large'));
    }
    const client = await clientName(d);
    const email = normaliseEmail(String(body.email ?? '')).slice(0, 254);
    const password = String(body.password ?? '').slice(0, 256);
    const wait = await loginThrottle.retryAfter(email, req.ip);
    if (wait > 0)
      return html(
        reply,
        429,
        renderLoginPage({
          uid: d.uid,
          clientName: client.name,
          redirectTo: client.redirectTo,
          email,
          error: `Too many failed sign-ins; try again in ${wait} s`,
        }),
      );
    // The form bypasses the app's body parsing (and its NUL guard): a NUL never reaches the database.
    const user = email && !email.includes('\u0000') ? await findUserByEmail(db, email) : undefined;
    const ok = password.length > 0 && (await verifyPassword(user?.password_hash ?? (await dummyHash()), password));
    if (!user || !ok) {
      await loginThrottle.failed(email, req.ip);
      if (user) await logActivity({ db, audit }, req, user.id, 'login_failed', null);
      return html(
        reply,
        401,
        renderLoginPage({ uid: d.uid, clientName: client.name, redirectTo: client.redirectTo, email, error: 'Wrong e-mail or password' }),
      );
    }
    await loginThrottle.succeeded(email, req.ip);
    if (user.disabled_at)
      return html(
        reply,
        403,
        renderLoginPage({ uid: d.uid, clientName: client.name, redirectTo: client.redirectTo, email, error: 'This account is disabled' }),
      );
    const to = await server.provider.interactionResult(req.raw, reply.raw, { login: { accountId: user.id } }, { mergeWithLastSubmission: false });
    return reply.redirect(to, 303);
  });

  app.post<{ Params: { uid: string } }>(`${OAUTH_PREFIX}/interaction/:uid/confirm`, interactionRoute, async (req, reply) => {
    const d = await details(req, reply);
    if (d?.prompt.name !== 'consent' || !d.session?.accountId) return expired(reply);
    await form(req).catch(() => ({}));
    const { provider } = server;
    const grant =
      (d.grantId ? await provider.Grant.find(d.grantId) : undefined) ??
      new provider.Grant({ accountId: d.session.accountId, clientId: String(d.params.client_id) });
    const det = d.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> };
    if (det.missingOIDCScope) grant.addOIDCScope(det.missingOIDCScope.join(' '));
    if (det.missingOIDCClaims) grant.addOIDCClaims(det.missingOIDCClaims);
    for (const [resource, scopes] of Object.entries(det.missingResourceScopes ?? {})) grant.addResourceScope(resource, scopes.join(' '));
    const grantId = await grant.save();
    const to = await provider.interactionResult(req.raw, reply.raw, { consent: { grantId } }, { mergeWithLastSubmission: true });
    return reply.redirect(to, 303);
  });

  app.post<{ Params: { uid: string } }>(`${OAUTH_PREFIX}/interaction/:uid/abort`, interactionRoute, async (req, reply) => {
    const d = await details(req, reply);
    if (!d) return expired(reply);
    await form(req).catch(() => ({}));
    const to = await server.provider.interactionResult(
      req.raw,
      reply.raw,
      { error: 'access_denied', error_description: 'The person declined the request' },
      { mergeWithLastSubmission: false },
    );
    return reply.redirect(to, 303);
  });
});
