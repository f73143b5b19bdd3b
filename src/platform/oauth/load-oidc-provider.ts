// oidc-provider is imported only when the OAuth server is built (docs/oauth-mcp.md): the commands that
// never serve the main API (`overlook keys`, `users`, `migrate`, `--help`) do not load it at all.
//
// On import it warns "Unsupported runtime" on any Node.js before 22 LTS. Overlook runs on Node 20, where
// its OAuth flows are tested end to end (test/platform/oauth/, test/mcp/), so that one line would be
// noise on every start and in every test, teaching people to skip warnings (docs/decisions.md). On Node 20
// only that exact line is held back while the module loads; any other warning still prints, and on any
// other runtime the line prints too.
import { stripVTControlCharacters } from 'node:util';

export type OidcProviderModule = typeof import('oidc-provider');

/** The line oidc-provider 9 prints (lib/index.js), in red when stderr is a terminal. */
const UNSUPPORTED_RUNTIME = 'oidc-provider WARNING: Unsupported runtime. Use Node.js v22.x LTS, or a later LTS release.';
/** The Node.js release on which the OAuth flows are tested and the line is held back. */
const TESTED_NODE_MAJOR = '20';

let loading: Promise<OidcProviderModule> | undefined;

/** The oidc-provider module, imported on first use (once per process). */
export function loadOidcProvider(): Promise<OidcProviderModule> {
  loading ??= importOidcProvider();
  return loading;
}

async function importOidcProvider(): Promise<OidcProviderModule> {
  if (process.versions.node.split('.')[0] !== TESTED_NODE_MAJOR) return import('oidc-provider');
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (args.length === 1 && typeof args[0] === 'string' && stripVTControlCharacters(args[0]) === UNSUPPORTED_RUNTIME) return;
    warn.apply(console, args);
  };
  try {
    return await import('oidc-provider');
  } finally {
    console.warn = warn;
  }
}
