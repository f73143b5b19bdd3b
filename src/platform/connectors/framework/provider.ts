// What a connector provider declares: who it is, how a person connects (OAuth 2.0 or stored
// credentials), where its API lives by default, and the routes of its actions. The framework reads
// the declaration to build connect/status/disconnect, the shared OAuth callback, the HTTP client and
// the provider list of `GET /v2/oauth2-tokens/providers`.
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { TObject } from 'typebox';
import type { PlatformServices } from '../../services.js';
import type { ConnectorStore } from './connector-store.js';
import type { ProviderClient } from './provider-client.js';

export type AuthKind = 'oauth' | 'credentials';

/** The app a provider's `routes` gets: TypeBox-typed, so params/body/querystring are inferred. */
export type ConnectorApp = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

export interface OAuthSettings {
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

/** What a provider's route plugin gets from the framework. */
export interface ConnectorContext {
  provider: ConnectorProvider;
  /** HTTP to the provider's API as a person (bearer token or credential headers, refresh, errors). */
  client: ProviderClient;
  /** Connections, uploads and events of this provider. */
  store: ConnectorStore;
  platform: PlatformServices;
  /** `['connectors']`: the OpenAPI tag every connector route uses. */
  tags: string[];
  /** `/v2/connectors/<id>`: the prefix every route of this provider lives under. */
  prefix: string;
}

export interface ConnectorProvider {
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
  /**
   * After connecting: who we are at the provider (remote user, companies), stored as `account` and shown by
   * status. For credentials providers this is also the check that the credentials work: throw to refuse them.
   */
  describeAccount?: (client: ProviderClient, userId: string) => Promise<Record<string, unknown>>;
  /** The provider's own actions; registered after connect/status/disconnect. */
  routes?: (app: ConnectorApp, ctx: ConnectorContext) => void | Promise<void>;
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
export function providerSettings(p: ConnectorProvider, env: Readonly<Record<string, string | undefined>>): ProviderSettings {
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
