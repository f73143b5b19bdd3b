// A loopback stand-in for a third-party provider with OAuth 2.0: an authorize endpoint that "signs the
// person in" and redirects back with a code, a token endpoint (authorization_code with PKCE S256 and
// client authentication, refresh_token with rotation), RFC 7009 revocation, and API routes a test adds
// per provider, each checking the bearer token unless declared public. Port 0, closed by the test.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

interface FakeRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: Buffer;
  /** The bearer token the request carried (already checked on non-public routes). */
  token: string | null;
  json<T = any>(): T;
  formData(): Promise<FormData>;
}

export interface FakeResponse {
  status?: number;
  json?: unknown;
  text?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

type Handler = (req: FakeRequest) => FakeResponse | Promise<FakeResponse>;

export interface FakeOAuthOptions {
  clientId?: string;
  clientSecret?: string;
  authorizePath?: string;
  tokenPath?: string;
  revokePath?: string;
  /** 'post' (secret in the form) or 'basic' (HTTP Basic), as the provider demands. */
  clientAuth?: 'post' | 'basic';
  /** Refuse authorizations without an S256 code challenge. */
  requirePkce?: boolean;
  accessTtlSeconds?: number;
  /** Granted scope string returned by the token endpoint. */
  scope?: string;
}

interface Grant {
  refresh: string;
  expiresAt: number;
}

export class FakeOAuthProvider {
  url = '';
  readonly clientId: string;
  readonly clientSecret: string;
  readonly opts: Required<FakeOAuthOptions>;
  /** Every request, in order, with the token it carried: assert what the platform really sent. */
  readonly log: { method: string; path: string; token: string | null; query: string }[] = [];
  readonly revoked: string[] = [];
  readonly accessTokens = new Map<string, Grant>();
  readonly refreshTokens = new Set<string>();
  /** Counts of token endpoint grants by type. */
  readonly grants = { authorization_code: 0, refresh_token: 0 };
  /** Tokens issued by the client-credentials grant, with the scope asked. */
  readonly appTokens: { token: string; scope: string }[] = [];
  /** The next authorization is denied (`?error=access_denied`). */
  denyNext = false;
  private readonly codes = new Map<string, { redirectUri: string; challenge: string | null }>();
  private readonly routes: { method: string; parts: string[]; handler: Handler; public: boolean }[] = [];
  private server: Server | null = null;

  constructor(opts: FakeOAuthOptions = {}) {
    this.opts = {
      clientId: opts.clientId ?? 'fake-client',
      clientSecret: opts.clientSecret ?? 'fake-secret',
      authorizePath: opts.authorizePath ?? '/oauth/authorize',
      tokenPath: opts.tokenPath ?? '/oauth/token',
      revokePath: opts.revokePath ?? '/oauth/revoke',
      clientAuth: opts.clientAuth ?? 'post',
      requirePkce: opts.requirePkce ?? false,
      accessTtlSeconds: opts.accessTtlSeconds ?? 3600,
      scope: opts.scope ?? '',
    };
    this.clientId = this.opts.clientId;
    this.clientSecret = this.opts.clientSecret;
  }

  /** An API route; `:name` segments become params. Bearer-checked unless `public`. */
  route(method: string, path: string, handler: Handler, opts: { public?: boolean } = {}): this {
    this.routes.push({ method: method.toUpperCase(), parts: path.split('/').filter(Boolean), handler, public: !!opts.public });
    return this;
  }

  /** Env for `buildTestPlatform`: API and OAuth at this fake. */
  env(stem: string): Record<string, string> {
    return { [`OVERLOOK_${stem}_URL`]: this.url, [`OVERLOOK_${stem}_CLIENT_ID`]: this.clientId, [`OVERLOOK_${stem}_CLIENT_SECRET`]: this.clientSecret };
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.handle(req, Buffer.concat(chunks))
          .then((r) => {
            const body = r.json !== undefined ? JSON.stringify(r.json) : (r.text ?? '');
            res.writeHead(r.status ?? 200, {
              'content-type': r.contentType ?? (r.json !== undefined ? 'application/json' : 'text/plain'),
              ...(r.headers ?? {}),
            });
            res.end(body);
          })
          .catch((err: Error) => {
            res.writeHead(500, { 'content-type': 'application/json' });
            res.end(JSON.stringify({ error: 'fake_failure', message: err.message }));
          });
      });
    });
    await new Promise<void>((ok) => this.server!.listen(0, '127.0.0.1', ok));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((ok) => this.server!.close(() => ok()));
    this.server = null;
  }

  /** Plays the browser at the provider: follows the authorization URL, returns where it redirects (the callback). */
  async authorize(authorizationUrl: string): Promise<URL> {
    const res = await fetch(authorizationUrl, { redirect: 'manual' });
    const location = res.headers.get('location');
    if (res.status !== 302 || !location) throw new Error(`authorize answered ${res.status}: ${await res.text()}`);
    return new URL(location);
  }

  /** Makes every issued access token unknown (the provider dropped them early): the next call gets 401. */
  dropAccessTokens(): void {
    this.accessTokens.clear();
  }

  /** Makes every access token expire now (the refresh tokens stay valid). */
  expireAccessTokens(): void {
    for (const g of this.accessTokens.values()) g.expiresAt = 0;
  }

  /** Issues a token pair as the token endpoint would (also for tests that store a connection directly). */
  issue(): { access_token: string; refresh_token: string; token_type: string; expires_in: number; scope?: string } {
    const access = `at_${randomBytes(12).toString('hex')}`;
    const refresh = `rt_${randomBytes(12).toString('hex')}`;
    this.accessTokens.set(access, { refresh, expiresAt: Date.now() + this.opts.accessTtlSeconds * 1000 });
    this.refreshTokens.add(refresh);
    return {
      access_token: access,
      refresh_token: refresh,
      token_type: 'Bearer',
      expires_in: this.opts.accessTtlSeconds,
      ...(this.opts.scope ? { scope: this.opts.scope } : {}),
    };
  }

  private clientOk(req: IncomingMessage, form: URLSearchParams): boolean {
    if (this.opts.clientAuth === 'basic') {
      const h = req.headers.authorization ?? '';
      if (!h.startsWith('Basic ')) return false;
      const [id, secret] = Buffer.from(h.slice(6), 'base64').toString().split(':').map(decodeURIComponent);
      return id === this.clientId && secret === this.clientSecret;
    }
    return form.get('client_id') === this.clientId && form.get('client_secret') === this.clientSecret;
  }

  private async handle(req: IncomingMessage, body: Buffer): Promise<FakeResponse> {
    const url = new URL(req.url ?? '/', this.url);
    const auth = req.headers.authorization ?? '';
    const token = auth.startsWith('Bearer ') ? auth.slice(7) : null;
    this.log.push({ method: req.method ?? 'GET', path: url.pathname, token, query: url.search });

    if (req.method === 'GET' && url.pathname === this.opts.authorizePath) {
      const q = url.searchParams;
      const redirectUri = q.get('redirect_uri');
      if (q.get('client_id') !== this.clientId || !redirectUri || q.get('response_type') !== 'code') return { status: 400, json: { error: 'invalid_request' } };
      const back = new URL(redirectUri);
      if (q.get('state')) back.searchParams.set('state', q.get('state')!);
      if (this.denyNext) {
        this.denyNext = false;
        back.searchParams.set('error', 'access_denied');
        return { status: 302, headers: { location: back.href } };
      }
      const challenge = q.get('code_challenge');
      if (this.opts.requirePkce && (!challenge || q.get('code_challenge_method') !== 'S256'))
        return { status: 400, json: { error: 'invalid_request', error_description: 'PKCE required' } };
      const code = `code_${randomBytes(8).toString('hex')}`;
      this.codes.set(code, { redirectUri, challenge });
      back.searchParams.set('code', code);
      return { status: 302, headers: { location: back.href } };
    }

    if (req.method === 'POST' && url.pathname === this.opts.tokenPath) {
      const form = new URLSearchParams(body.toString());
      if (!this.clientOk(req, form)) return { status: 401, json: { error: 'invalid_client' } };
      if (form.get('grant_type') === 'authorization_code') {
        const code = this.codes.get(form.get('code') ?? '');
        this.codes.delete(form.get('code') ?? '');
        if (!code || code.redirectUri !== form.get('redirect_uri')) return { status: 400, json: { error: 'invalid_grant' } };
        if (code.challenge) {
          const verifier = form.get('code_verifier') ?? '';
          if (createHash('sha256').update(verifier).digest('base64url') !== code.challenge)
            return { status: 400, json: { error: 'invalid_grant', error_description: 'PKCE verification failed' } };
        }
        this.grants.authorization_code++;
        return { json: this.issue() };
      }
      if (form.get('grant_type') === 'refresh_token') {
        const rt = form.get('refresh_token') ?? '';
        if (!this.refreshTokens.has(rt)) return { status: 400, json: { error: 'invalid_grant' } };
        // Rotation: the old refresh token is spent.
        this.refreshTokens.delete(rt);
        this.grants.refresh_token++;
        return { json: this.issue() };
      }
      if (form.get('grant_type') === 'client_credentials') {
        // An app token: no person, no refresh token.
        const access = `app_${randomBytes(12).toString('hex')}`;
        this.accessTokens.set(access, { refresh: '', expiresAt: Date.now() + this.opts.accessTtlSeconds * 1000 });
        this.appTokens.push({ token: access, scope: form.get('scope') ?? '' });
        return { json: { access_token: access, token_type: 'Bearer', expires_in: this.opts.accessTtlSeconds, scope: form.get('scope') ?? '' } };
      }
      return { status: 400, json: { error: 'unsupported_grant_type' } };
    }

    if (req.method === 'POST' && url.pathname === this.opts.revokePath) {
      const form = new URLSearchParams(body.toString());
      if (!this.clientOk(req, form)) return { status: 401, json: { error: 'invalid_client' } };
      const t = form.get('token') ?? '';
      this.revoked.push(t);
      this.accessTokens.delete(t);
      this.refreshTokens.delete(t);
      return { status: 200, text: '' };
    }

    const parts = url.pathname.split('/').filter(Boolean);
    for (const r of this.routes) {
      if (r.method !== req.method || r.parts.length !== parts.length) continue;
      const params: Record<string, string> = {};
      const matches = r.parts.every((p, i) => {
        if (!p.startsWith(':')) return p === parts[i];
        params[p.slice(1)] = decodeURIComponent(parts[i]!);
        return true;
      });
      if (!matches) continue;
      if (!r.public) {
        const grant = token ? this.accessTokens.get(token) : undefined;
        if (!grant || grant.expiresAt <= Date.now()) return { status: 401, json: { error: 'invalid_token' } };
      }
      const contentType = String(req.headers['content-type'] ?? '');
      return r.handler({
        method: req.method!,
        path: url.pathname,
        params,
        query: url.searchParams,
        headers: req.headers,
        body,
        token,
        json: () => JSON.parse(body.toString() || 'null'),
        formData: () => new Response(new Uint8Array(body), { headers: { 'content-type': contentType } }).formData() as Promise<FormData>,
      });
    }
    return { status: 404, json: { error: 'not_found', message: `no fake route ${req.method} ${url.pathname}` } };
  }
}

export async function startFakeOAuthProvider(opts: FakeOAuthOptions = {}): Promise<FakeOAuthProvider> {
  return new FakeOAuthProvider(opts).start();
}
