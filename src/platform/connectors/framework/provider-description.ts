// What a connector provider is, apart from its behaviour: its names, how a person connects, where its
// API lives, and the settings the configuration gives it. The HTTP client and the OAuth flow need only
// this; provider.ts adds the provider's account description and routes.
import type { TObject } from 'typebox';
import type { AuthKind } from './connectors-tables.js';

interface OAuthSettings {
  /** Paths on the auth base URL (or absolute URLs). */
  authorizePath: string;
  tokenPath: string;
  /** RFC 7009 revocation, called on disconnect when present. */
  revokePath?: string;
  /** Scopes asked for, space-separated in the authorization URL. */
  scopes: readonly string[];
  /** Send a PKCE S256 challenge (when the provider supports it). */
  pkce: boolean;
  /** How the client authenticates at the token endpoint: secret in the form body, or HTTP Basic. */
  clientAuth: 'post' | 'basic';
  /** Provider-specific authorization parameters. */
  extraAuthorizeParams?: Record<string, string>;
}

export interface ProviderDescription {
  /** URL segment and env-name stem: `procore` → `/v2/connectors/procore`, `OVERLOOK_PROCORE_URL`. */
  id: string;
  /** Shown to people: "Procore". */
  name: string;
  /** Prefix of this provider's operationIds: `procore` → `procoreConnect`, `procoreListCompanies`. */
  operationPrefix: string;
  authKind: AuthKind;
  /** Default base URLs: `api` for the API (OVERLOOK_<ID>_URL), `auth` for OAuth (OVERLOOK_<ID>_AUTH_URL). */
  defaultUrls: { api: string; auth?: string };
  oauth?: OAuthSettings;
  /** Credentials providers: the body `connect` accepts (TypeBox object of strings). */
  credentialsSchema?: TObject;
  /** Credentials providers: the headers (and query) a request carries for these credentials. */
  credentialAuth?: (credentials: Record<string, string>) => { headers?: Record<string, string>; query?: Record<string, string> };
}

/** The provider's URL and client settings as configured (env over defaults). */
export interface ProviderSettings {
  apiUrl: string;
  authUrl: string;
  clientId?: string;
  clientSecret?: string;
}

/** `acc` → `ACC`, `voyage-control` → `VOYAGE_CONTROL`. */
export const envStem = (id: string): string => id.toUpperCase().replace(/[^A-Z0-9]/g, '_');

/**
 * OVERLOOK_<ID>_URL, OVERLOOK_<ID>_AUTH_URL, OVERLOOK_<ID>_CLIENT_ID, OVERLOOK_<ID>_CLIENT_SECRET. When only
 * the API URL is overridden (a test fake, a proxy), OAuth follows it there.
 */
export function providerSettings(p: ProviderDescription, env: Readonly<Record<string, string | undefined>>): ProviderSettings {
  const stem = `OVERLOOK_${envStem(p.id)}`;
  const api = env[`${stem}_URL`];
  const auth = env[`${stem}_AUTH_URL`] ?? api ?? p.defaultUrls.auth ?? p.defaultUrls.api;
  return {
    apiUrl: trimSlash(api ?? p.defaultUrls.api),
    authUrl: trimSlash(auth),
    clientId: env[`${stem}_CLIENT_ID`] || undefined,
    clientSecret: env[`${stem}_CLIENT_SECRET`] || undefined,
  };
}

const trimSlash = (u: string) => u.replace(/\/+$/, '');

/** A path on a base URL, or an absolute URL as is. */
export const joinUrl = (base: string, path: string): string => (/^https?:\/\//.test(path) ? path : base + (path.startsWith('/') ? path : `/${path}`));
