// An MCP client as an assistant app would be: the SDK's own Client and StreamableHTTPClientTransport,
// with an OAuthClientProvider keeping registration, PKCE verifier and tokens in memory. The browser
// part (sign-in, consent) is driven by signInAndConsent.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { signInAndConsent } from './oauth-flow.js';
import { REDIRECT } from './oauth-servers.js';

export class MemoryOAuthProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationUrl?: URL;

  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Site Assistant (MCP test)',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      scope: 'mcp',
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** Connects with OAuth: the first attempt is refused (401), the person signs in and consents, the client finishes. */
export async function connectWithOAuth(
  mcpUrl: string,
  person: { email: string; password: string },
): Promise<{ client: Client; provider: MemoryOAuthProvider; consentPage: string; close(): Promise<void> }> {
  const provider = new MemoryOAuthProvider();
  const first = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider });
  const c1 = new Client({ name: 'test-assistant', version: '1.0.0' });
  let refused: unknown;
  try {
    await c1.connect(first);
  } catch (err) {
    refused = err;
  }
  if (!(refused instanceof UnauthorizedError) || !provider.authorizationUrl) throw new Error(`expected the OAuth redirect, got ${String(refused)}`);
  const flow = await signInAndConsent(provider.authorizationUrl.toString(), person);
  const code = flow.redirect.searchParams.get('code');
  if (!code) throw new Error(`no code: ${flow.redirect}`);
  await first.finishAuth(code);
  await c1.close().catch(() => {});

  const client = new Client({ name: 'test-assistant', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }));
  return { client, provider, consentPage: flow.consentPage, close: () => client.close() };
}

/** Connects with a fixed bearer token (a platform JWT). */
export async function connectWithBearer(mcpUrl: string, token: string): Promise<Client> {
  const client = new Client({ name: 'test-assistant', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}
