// The main API (with its authorization server) and the MCP server on real loopback ports, as
// `overlook up` runs them, on a fresh database; plus OAuth helpers shared by the OAuth and MCP tests.
import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildMcpApp } from '../../src/mcp/app.js';
import { buildTestPlatform, type Person, type TestPlatform } from './platform.js';
import { pkcePair, signInAndConsent } from './oauth-flow.js';

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

export interface OauthServers {
  tp: TestPlatform;
  apiUrl: string;
  mcpUrl: string;
  mcp: FastifyInstance;
  /** Starts another MCP server against the same main API (e.g. with another resource URL). */
  extraMcp(resourcePath?: string): Promise<{ url: string; close(): Promise<void> }>;
  close(): Promise<void>;
}

export async function startOauthServers(env: Record<string, string> = {}): Promise<OauthServers> {
  const [apiPort, mcpPort] = [await freePort(), await freePort()];
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const mcpUrl = `http://127.0.0.1:${mcpPort}/mcp`;
  // Every test registers clients from 127.0.0.1: the per-address registration limit is raised unless a test sets it.
  const tp = await buildTestPlatform({ OVERLOOK_PUBLIC_URL: apiUrl, OVERLOOK_MCP_URL: mcpUrl, OVERLOOK_OAUTH_REGISTRATIONS_PER_HOUR: '1000', ...env });
  await tp.app.listen({ host: '127.0.0.1', port: apiPort });
  const mcp = await buildMcpApp({ apiUrl, resourceUrl: mcpUrl, logger: false });
  await mcp.listen({ host: '127.0.0.1', port: mcpPort });
  const extras: FastifyInstance[] = [];
  return {
    tp,
    apiUrl,
    mcpUrl,
    mcp,
    async extraMcp(resourcePath = '/mcp') {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}${resourcePath}`;
      const app = await buildMcpApp({ apiUrl, resourceUrl: url, logger: false });
      await app.listen({ host: '127.0.0.1', port });
      extras.push(app);
      return { url, close: () => app.close() };
    },
    async close() {
      await Promise.allSettled(extras.map((a) => a.close()));
      await mcp.close();
      await tp.close();
    },
  };
}

export const REDIRECT = 'http://127.0.0.1:5555/callback';

export async function registerClient(apiUrl: string, body: Record<string, unknown> = {}): Promise<{ client_id: string; [k: string]: unknown }> {
  const res = await fetch(`${apiUrl}/oauth/reg`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Test assistant',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...body,
    }),
  });
  if (res.status !== 201) throw new Error(`registration: ${res.status} ${await res.text()}`);
  return res.json();
}

export function authorizationUrl(apiUrl: string, params: Record<string, string>): string {
  const u = new URL(`${apiUrl}/oauth/auth`);
  for (const [k, v] of Object.entries({ response_type: 'code', redirect_uri: REDIRECT, scope: 'mcp', state: 'st-1', ...params })) u.searchParams.set(k, v);
  return u.toString();
}

export const tokenRequest = (apiUrl: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${apiUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
  });

/** Registration, authorize with PKCE S256, sign-in, consent, code exchange: the tokens a client ends with. */
export async function obtainTokens(
  s: Pick<OauthServers, 'apiUrl' | 'mcpUrl'>,
  person: Person,
  clientId?: string,
): Promise<{ access_token: string; refresh_token: string; client_id: string; consentPage: string }> {
  const client_id = clientId ?? (await registerClient(s.apiUrl)).client_id;
  const { verifier, challenge } = pkcePair();
  const flow = await signInAndConsent(
    authorizationUrl(s.apiUrl, { client_id, code_challenge: challenge, code_challenge_method: 'S256', resource: s.mcpUrl }),
    person,
  );
  const code = flow.redirect.searchParams.get('code');
  if (!code) throw new Error(`no code: ${flow.redirect}`);
  const res = await tokenRequest(s.apiUrl, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    client_id,
    code_verifier: verifier,
    resource: s.mcpUrl,
  });
  const body = await res.json();
  if (res.status !== 200) throw new Error(`token: ${res.status} ${JSON.stringify(body)}`);
  return { ...body, client_id, consentPage: flow.consentPage };
}
