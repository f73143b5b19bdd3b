// Configuration of the administration features (docs/admin.md): impersonation, external OpenID Connect
// sign-in providers, and the CRM and CMS proxies. Secrets (client secrets, upstream tokens) come from
// the environment and stay on the server: no answer, log line or audit event ever carries them.
import type { PlatformEnvValues } from './env-schema.js';

export interface OidcProviderConfig {
  /** The `{provider}` path segment, e.g. `google`. */
  id: string;
  /** Shown to people, e.g. `Google`. */
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Whether a first sign-in with an unknown verified e-mail creates an account (else it must exist). */
  signup: boolean;
}

export interface UpstreamConfig {
  /** Base URL of the upstream service; paths under the proxy prefix are appended to it. */
  baseUrl: string;
  /** Sent upstream as `Authorization: Bearer …`; never returned or logged. */
  token?: string;
  /** Allowed upstream paths: `/contacts`, `/contacts/*` (one segment), `/contacts/**` (any depth). */
  paths: string[];
}

export interface AdminConfig {
  /** Lifetime of an impersonated session, in minutes. */
  impersonationMinutes: number;
  oidcProviders: OidcProviderConfig[];
  /** Pending provider sign-ins expire after this many seconds. */
  oidcLoginSeconds: number;
  crm?: UpstreamConfig;
  cms?: UpstreamConfig;
  proxyTimeoutMs: number;
  /** Largest upstream answer passed through, in bytes. */
  proxyMaxBytes: number;
}

const ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** OVERLOOK_OIDC_PROVIDERS: a JSON array of {id, name, issuer, client_id, client_secret, signup?}. */
function oidcProviders(raw: string | undefined): OidcProviderConfig[] {
  if (!raw) return [];
  let list: unknown;
  try {
    list = JSON.parse(raw);
  } catch {
    throw new Error('OVERLOOK_OIDC_PROVIDERS must be a JSON array');
  }
  if (!Array.isArray(list)) throw new Error('OVERLOOK_OIDC_PROVIDERS must be a JSON array');
  return list.map((p: Record<string, unknown>, i) => {
    const s = (k: string) => {
      const v = p?.[k];
      if (typeof v !== 'string' || !v) throw new Error(`OVERLOOK_OIDC_PROVIDERS[${i}].${k} is required`);
      return v;
    };
    const id = s('id');
    if (!ID.test(id)) throw new Error(`OVERLOOK_OIDC_PROVIDERS[${i}].id must be lower-case letters, digits, - or _`);
    new URL(s('issuer'));
    return {
      id,
      name: typeof p.name === 'string' && p.name ? p.name : id,
      issuer: s('issuer'),
      clientId: s('client_id'),
      clientSecret: s('client_secret'),
      signup: p.signup === true,
    };
  });
}

/** OVERLOOK_CRM_* or OVERLOOK_CMS_*: no URL, no proxy. */
function upstream(prefix: 'CRM' | 'CMS', baseUrl: string | undefined, rawPaths: string | undefined, token: string | undefined): UpstreamConfig | undefined {
  if (!baseUrl) return undefined;
  const url = new URL(baseUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`OVERLOOK_${prefix}_URL must be http(s)`);
  const paths = (rawPaths ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  for (const p of paths) if (!p.startsWith('/')) throw new Error(`OVERLOOK_${prefix}_PATHS entries start with /: ${p}`);
  return { baseUrl: baseUrl.replace(/\/+$/, ''), token: token || undefined, paths };
}

export function adminConfig(env: PlatformEnvValues): AdminConfig {
  return {
    impersonationMinutes: env.OVERLOOK_IMPERSONATION_MINUTES,
    oidcProviders: oidcProviders(env.OVERLOOK_OIDC_PROVIDERS),
    oidcLoginSeconds: env.OVERLOOK_OIDC_LOGIN_SECONDS,
    crm: upstream('CRM', env.OVERLOOK_CRM_URL, env.OVERLOOK_CRM_PATHS, env.OVERLOOK_CRM_TOKEN),
    cms: upstream('CMS', env.OVERLOOK_CMS_URL, env.OVERLOOK_CMS_PATHS, env.OVERLOOK_CMS_TOKEN),
    proxyTimeoutMs: env.OVERLOOK_PROXY_TIMEOUT_MS,
    proxyMaxBytes: env.OVERLOOK_PROXY_MAX_BYTES,
  };
}
