// oidc-provider is imported only when the OAuth server is built (docs/oauth-mcp.md): the commands that
// never serve the main API (`overlook keys`, `users`, `migrate`, `--help`) do not load it at all.
export type OidcProviderModule = typeof import('oidc-provider');

let loading: Promise<OidcProviderModule> | undefined;

/** The oidc-provider module, imported on first use (once per process). */
export function loadOidcProvider(): Promise<OidcProviderModule> {
  loading ??= import('oidc-provider');
  return loading;
}
