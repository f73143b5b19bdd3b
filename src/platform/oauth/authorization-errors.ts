// oidc-provider answers an error of the authorization endpoint (a bad scope, a missing PKCE challenge,
// prompt=none without a session…) by redirecting to the client's redirect URI as soon as the client
// and the URI are known, before the person has seen anything: with open registration that makes
// /oauth/auth a redirect to wherever a client registered. So an error there is shown on a page (as
// OAuth 2.1 and RFC 9700 advise); the person is sent back to a client only after the sign-in or
// consent page has named the client and where it sends them (the `resume` step, e.g. after Deny).
import type Provider from 'oidc-provider';
import { renderErrorPage } from './pages.js';

/** The part of Koa's context used here (oidc-provider is a Koa app). */
interface KoaContext {
  status: number;
  type: string;
  body: unknown;
  state: Record<string, unknown>;
  oidc?: { route?: string };
  remove(header: string): void;
  set(header: string, value: string): void;
}
type Middleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void>;

/** Where the error of this request is remembered, in Koa's per-request state. */
const ERROR = 'overlookAuthorizationError';

export function showAuthorizationErrors(provider: Provider): void {
  const remember = (ctx: KoaContext | undefined, err: { error_description?: string; message?: string }) => {
    if (ctx?.state) ctx.state[ERROR] = err;
  };
  provider.on('authorization.error', remember);
  provider.on('server_error', remember);
  (provider as unknown as { use(mw: Middleware): void }).use(async (ctx, next) => {
    await next();
    const err = ctx.state[ERROR] as { error_description?: string; error?: string } | undefined;
    if (!err || ctx.oidc?.route !== 'authorization') return;
    ctx.remove('location');
    ctx.status = 400;
    ctx.type = 'html';
    ctx.set('cache-control', 'no-store');
    ctx.set('x-frame-options', 'DENY');
    ctx.set('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'");
    ctx.body = renderErrorPage(
      `The application’s request could not be accepted (${err.error ?? 'error'}${err.error_description ? `: ${err.error_description}` : ''}). Nothing was shared with it.`,
    );
  });
}
