// A real OpenID Connect provider (oidc-provider) on a loopback port, for the provider sign-in tests,
// and a tiny "browser" that walks its login and consent pages (its development interactions).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadOidcProvider } from '../../../src/platform/oauth/load-oidc-provider.js';

export interface LocalOp {
  issuer: string;
  /** Accounts the provider knows: sub → claims. */
  accounts: Map<string, { email?: string; email_verified?: boolean; given_name?: string; family_name?: string }>;
  /** Follows the provider's redirects and forms as `sub` until it redirects to `redirectPrefix`; returns that URL. */
  signIn(authorizationUrl: string, sub: string, redirectPrefix: string): Promise<URL>;
  close(): Promise<void>;
}

export async function startLocalOp(clients: { client_id: string; client_secret: string; redirect_uri: string }[]): Promise<LocalOp> {
  const server: Server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const accounts: LocalOp['accounts'] = new Map();
  // Through the platform's loader, which keeps oidc-provider's Node 20 runtime warning out of the output.
  const { default: Provider } = await loadOidcProvider();
  const op = new Provider(issuer, {
    clients: clients.map((c) => ({
      client_id: c.client_id,
      client_secret: c.client_secret,
      redirect_uris: [c.redirect_uri],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
    })),
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'] },
    findAccount: (_ctx, id) => {
      const claims = accounts.get(id);
      return claims ? { accountId: id, claims: () => ({ sub: id, ...claims }) } : undefined;
    },
    cookies: { keys: ['local-op-cookie-key'] },
    features: { devInteractions: { enabled: true } },
  });
  server.on('request', op.callback());

  async function signIn(start: string, sub: string, redirectPrefix: string): Promise<URL> {
    const jar = new Map<string, string>();
    const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const keep = (res: Response) => {
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const eq = pair!.indexOf('=');
        jar.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1));
      }
    };
    let url = start;
    for (let hop = 0; hop < 15; hop++) {
      if (url.startsWith(redirectPrefix)) return new URL(url);
      let res = await fetch(url, { redirect: 'manual', headers: { cookie: cookie() } });
      keep(res);
      if (res.status === 200 && url.includes('/interaction/')) {
        const page = await res.text();
        const form = page.includes('name="login"') ? `prompt=login&login=${encodeURIComponent(sub)}&password=any` : 'prompt=consent';
        res = await fetch(url, {
          method: 'POST',
          redirect: 'manual',
          body: form,
          headers: { cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded' },
        });
        keep(res);
      }
      const next = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !next) throw new Error(`local OP: unexpected ${res.status} at ${url}: ${(await res.text()).slice(0, 300)}`);
      url = new URL(next, url).href;
    }
    throw new Error('local OP: too many redirects');
  }

  return {
    issuer,
    accounts,
    signIn,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
