import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ApiError } from '../../lib/errors.js';
import { dummyHash, verifyPassword } from '../../lib/auth/passwords.js';
import { peopleOnly, scoped } from '../access/index.js';
import { errorResponses } from '../../lib/http/schemas.js';
import { normaliseEmail, toUserRecord, UserRecord, findUserByEmail, findUserById } from '../users/index.js';
import { sessionTimesOf } from './sessions-repository.js';
import { logActivity } from './activities.js';
import { auditContext } from '../audit/index.js';
import { defineRoutes } from '../plugins/feature.js';

const LoginBody = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: 254, description: 'The person’s e-mail address' }),
    password: Type.String({ minLength: 1, maxLength: 256 }),
  },
  { additionalProperties: false },
);

const LoginResponse = Type.Intersect([UserRecord, Type.Object({ token: Type.String({ description: 'JWT for Authorization: Bearer' }) })]);

const ProviderList = Type.Array(Type.Object({ provider: Type.String(), name: Type.String() }));

export const authRoutes = defineRoutes(
  'auth-routes',
  ['db', 'sessions', 'loginThrottle', 'audit', 'oidc', 'config', 'connectors'],
  async (fastify, { db, sessions, loginThrottle, audit, oidc, config, connectors }) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.post(
      '/v2/auth/login',
      {
        config: { access: peopleOnly({ anonymous: true }) },
        schema: {
          tags: ['auth'],
          operationId: 'login',
          summary: 'Sign in with e-mail and password; returns the user record and a JWT',
          body: LoginBody,
          response: { 200: LoginResponse, ...errorResponses() },
        },
      },
      async (req) => {
        const email = normaliseEmail(req.body.username);
        const ip = req.ip;
        await loginThrottle.check(email, ip);
        const user = await findUserByEmail(db, email);
        const ok = await verifyPassword(user?.password_hash ?? (await dummyHash()), req.body.password);
        if (!user || !ok) {
          await loginThrottle.failed(email, ip);
          if (user) await logActivity({ db, audit }, req, user.id, 'login_failed', null);
          // An unknown e-mail has no person to file it under: audited with the address tried.
          else
            await audit.record(
              { ...auditContext(req), actorUserId: null },
              { action: 'auth.login', outcome: 'failure', subjectUserId: null, details: { method: 'password', email } },
            );
          throw new ApiError('INVALID_CREDENTIALS', 'Wrong e-mail or password', { headers: { 'www-authenticate': 'Bearer realm="overlook"' } });
        }
        await loginThrottle.succeeded(email, ip);
        if (user.disabled_at) {
          // Said only after the right password, so it reveals nothing to a guesser.
          await logActivity({ db, audit }, req, user.id, 'login_failed', null, { reason: 'account disabled' });
          throw new ApiError('ACCOUNT_DISABLED', 'This account has been disabled by an administrator');
        }
        const ua = req.headers['user-agent'];
        const session = await sessions.create(user.id, { ip, userAgent: typeof ua === 'string' ? ua : undefined });
        await logActivity({ db, audit }, req, user.id, 'login', session.sessionId);
        return { ...toUserRecord(user), token: session.token };
      },
    );

    app.delete(
      '/v2/auth/logout',
      {
        config: { access: peopleOnly() },
        schema: {
          tags: ['auth'],
          operationId: 'logout',
          summary: 'End the caller’s session; its JWT is refused from now on',
          response: { 204: Type.Null(), ...errorResponses() },
        },
      },
      async (req, reply) => {
        const p = req.principal;
        if (p.kind !== 'user') throw new ApiError('UNAUTHORIZED', 'Sign in first');
        await sessions.revoke(p.sessionId, p.userId);
        await logActivity({ db, audit }, req, p.userId, 'logout', p.sessionId);
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/v2/auth/users/me',
      {
        // Open to OAuth tokens too: it is how the MCP server confirms whom a token speaks for.
        config: { access: peopleOnly({ delegated: true }) },
        schema: { tags: ['auth'], operationId: 'getMe', summary: 'The signed-in person’s user record', response: { 200: UserRecord, ...errorResponses() } },
      },
      async (req) => {
        const p = req.principal;
        const user = p.kind === 'user' ? await findUserById(db, p.userId) : undefined;
        if (!user) throw new ApiError('UNAUTHORIZED', 'Sign in first');
        return toUserRecord(user);
      },
    );

    app.get(
      '/v2/auth/credentials',
      {
        config: { access: peopleOnly() },
        schema: {
          tags: ['auth'],
          operationId: 'getCredentials',
          summary: 'What the caller is signed in with: the session behind the JWT',
          response: {
            200: Type.Object({
              type: Type.Literal('jwt'),
              user_id: Type.String(),
              session_id: Type.String(),
              created_at: Type.String(),
              expires_at: Type.String(),
            }),
            ...errorResponses(),
          },
        },
      },
      async (req) => {
        const p = req.principal;
        if (p.kind !== 'user') throw new ApiError('UNAUTHORIZED', 'Sign in first');
        const s = await sessionTimesOf(db, p.sessionId);
        return { type: 'jwt' as const, user_id: p.userId, session_id: p.sessionId, created_at: s.created_at, expires_at: s.expires_at };
      },
    );

    // Sign-in options: password, and the OpenID Connect providers configured (OVERLOOK_OIDC_PROVIDERS).
    const configuredProviders = oidc.list();

    app.get(
      '/v2/auth/options',
      {
        config: { access: scoped(['user:info']) },
        schema: {
          tags: ['auth'],
          operationId: 'getAuthOptions',
          summary: 'How people can sign in',
          response: { 200: Type.Object({ password: Type.Boolean(), providers: ProviderList }), ...errorResponses() },
        },
      },
      async () => ({ password: true, providers: configuredProviders }),
    );

    app.get(
      '/v2/auth/signup_options',
      {
        config: { access: scoped(['user:info']) },
        schema: {
          tags: ['auth'],
          operationId: 'getSignupOptions',
          summary: 'Whether and how new people can sign up',
          response: { 200: Type.Object({ signup_enabled: Type.Boolean(), providers: ProviderList }), ...errorResponses() },
        },
      },
      // Providers list here only when a first sign-in through them may create the account (`signup: true`).
      async () => {
        const providers = oidc.list({ signup: true });
        return { signup_enabled: config.signupEnabled || providers.length > 0, providers };
      },
    );

    app.get(
      '/v2/auth/provider/:provider',
      {
        config: { access: scoped(['user:info']) },
        schema: {
          tags: ['auth'],
          operationId: 'getAuthProvider',
          summary: 'A configured sign-in provider, and where its sign-in starts',
          params: Type.Object({ provider: Type.String({ minLength: 1, maxLength: 64 }) }),
          response: { 200: Type.Object({ provider: Type.String(), name: Type.String(), login_url: Type.String() }), ...errorResponses() },
        },
      },
      async (req) => oidc.describe(req.params.provider),
    );

    app.get(
      '/v2/oauth2-tokens/providers',
      {
        config: { access: scoped(['user:info']) },
        schema: {
          tags: ['auth'],
          operationId: 'listConnectedProviders',
          summary: 'Third-party providers the caller has connected',
          response: {
            200: Type.Array(
              Type.Object({
                provider: Type.String(),
                name: Type.String(),
                auth_kind: Type.String({ description: 'oauth or credentials' }),
                scopes: Type.Array(Type.String()),
                connected_at: Type.String(),
                expires_at: Type.Union([Type.String(), Type.Null()]),
              }),
            ),
            ...errorResponses(),
          },
        },
      },
      // The caller's connector connections (src/platform/connectors), of providers this server still offers.
      async (req) => {
        const p = req.principal;
        if (p.kind === 'anonymous') return [];
        const names = new Map(connectors.providers().map((x) => [x.id, x.name]));
        const rows = await connectors.store.listConnections(p.userId);
        return rows
          .filter((r) => names.has(r.provider))
          .map((r) => ({
            provider: r.provider,
            name: names.get(r.provider)!,
            auth_kind: r.auth_kind,
            scopes: r.scopes,
            connected_at: r.created_at,
            expires_at: r.expires_at,
          }));
      },
    );
  },
);
