// HTTP to a provider's API on behalf of one person: the base URL from configuration, the person's
// bearer token (refreshed shortly before it expires, and once more if the provider answers 401) or
// the provider's credential headers, a timeout, and the provider's failures turned into our errors:
// no answer → 504, a broken answer → 502, tokens refused even after a refresh → 502
// CONNECTOR_AUTH_EXPIRED, the provider's 404 → 404 and its 403 → 403 (the remote thing is not there, or
// the remote account may not touch it), its 400/422 → 400 (it refused what the caller asked for).
import { ApiError, type ErrorCode } from '../../../lib/errors.js';
import type { ConnectorStore, Connection } from './connector-store.js';
import type { OAuthFlow } from './oauth-flow.js';
import { joinUrl, type ProviderDescription, type ProviderSettings } from './provider-description.js';

/** Refresh this long before the provider's expiry, so a token does not die in flight. */
const REFRESH_MARGIN_MS = 60_000;
/** Most bytes read from a provider's answer (lists, metadata; uploads go the other way). */
const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

export interface ProviderRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A path on the API base URL, or an absolute URL (e.g. a signed upload URL the provider handed out). */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  json?: unknown;
  /** Multipart body (files). */
  form?: FormData;
  /** A raw body, e.g. JPEG bytes for a signed upload URL. */
  body?: Buffer;
  contentType?: string;
  headers?: Record<string, string>;
  /** How to read the answer: JSON (default), text (XML providers), or nothing. */
  responseType?: 'json' | 'text' | 'none';
  /** Send no Authorization header (signed URLs carry their own). */
  anonymous?: boolean;
}

export interface ProviderResponse<T> {
  status: number;
  headers: Headers;
  body: T;
}

export class ProviderClient {
  private readonly refreshing = new Map<string, Promise<string>>();

  constructor(
    readonly provider: ProviderDescription,
    readonly settings: ProviderSettings,
    private readonly store: ConnectorStore,
    private readonly flow: OAuthFlow | null,
    private readonly timeoutMs: number,
  ) {}

  /** The person's connection, or 409 CONNECTOR_NOT_CONNECTED. */
  async connection(userId: string): Promise<Connection> {
    const c = await this.store.connection(userId, this.provider.id);
    if (!c)
      throw new ApiError(
        'CONNECTOR_NOT_CONNECTED',
        `${this.provider.name} is not connected: connect it first (POST /v2/connectors/${this.provider.id}/connect)`,
      );
    return c;
  }

  /** A usable access token: the stored one, or a fresh one when it expires within the margin. */
  async accessToken(userId: string, force = false): Promise<string> {
    const c = await this.connection(userId);
    if (!c.accessToken) throw new ApiError('CONNECTOR_AUTH_EXPIRED', `${this.provider.name} holds no access token for you: connect again`);
    const expiring = c.expiresAt !== null && Date.parse(c.expiresAt) - REFRESH_MARGIN_MS <= Date.now();
    if (!force && !expiring) return c.accessToken;
    if (!c.refreshToken || !this.flow) {
      if (!force && c.expiresAt && Date.parse(c.expiresAt) > Date.now()) return c.accessToken;
      throw new ApiError('CONNECTOR_AUTH_EXPIRED', `The ${this.provider.name} connection has expired and cannot be renewed: connect again`);
    }
    // One refresh at a time per person: concurrent calls share it (a refresh token is often single-use).
    const pending = this.refreshing.get(userId);
    if (pending) return pending;
    const p = this.flow
      .refresh(c.refreshToken)
      .then(async (t) => {
        await this.store.updateTokens(userId, this.provider.id, { accessToken: t.accessToken, refreshToken: t.refreshToken, expiresAt: t.expiresAt });
        return t.accessToken;
      })
      .finally(() => this.refreshing.delete(userId));
    this.refreshing.set(userId, p);
    return p;
  }

  /** A token of the app itself (client-credentials grant) with these scopes, for OAuth providers. */
  async appToken(scopes: readonly string[]): Promise<{ accessToken: string; expiresAt: string | null }> {
    if (!this.flow) throw new ApiError('BAD_REQUEST', `${this.provider.name} has no OAuth application`);
    const t = await this.flow.clientCredentials(scopes);
    return { accessToken: t.accessToken, expiresAt: t.expiresAt };
  }

  /** Calls the provider as the person; returns the parsed body. */
  async request<T = unknown>(userId: string, req: ProviderRequest): Promise<T> {
    return (await this.send<T>(userId, req)).body;
  }

  /** Calls the provider as the person; returns status, headers and body. */
  async send<T = unknown>(userId: string, req: ProviderRequest): Promise<ProviderResponse<T>> {
    if (req.anonymous) return this.once<T>(req, {});
    if (this.provider.authKind === 'credentials') {
      const c = await this.connection(userId);
      const auth = this.provider.credentialAuth?.(c.credentials ?? {}) ?? {};
      const res = await this.once<T>({ ...req, query: { ...(auth.query ?? {}), ...(req.query ?? {}) } }, auth.headers ?? {});
      if (res.status === 401) throw new ApiError('CONNECTOR_AUTH_EXPIRED', `${this.provider.name} no longer accepts the stored credentials: connect again`);
      return res;
    }
    const first = await this.once<T>(req, { authorization: `Bearer ${await this.accessToken(userId)}` });
    if (first.status !== 401) return first;
    // The provider dropped the token before its stated expiry: refresh once and retry once.
    const again = await this.once<T>(req, { authorization: `Bearer ${await this.accessToken(userId, true)}` });
    if (again.status === 401) throw new ApiError('CONNECTOR_AUTH_EXPIRED', `${this.provider.name} refused the renewed token: connect again`);
    return again;
  }

  /** One HTTP exchange; a 401 is returned (the caller decides), every other failure thrown. */
  private async once<T>(req: ProviderRequest, auth: Record<string, string>): Promise<ProviderResponse<T>> {
    const url = new URL(joinUrl(this.settings.apiUrl, req.path));
    for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { accept: req.responseType === 'text' ? '*/*' : 'application/json', ...auth, ...(req.headers ?? {}) };
    let body: RequestInit['body'];
    if (req.json !== undefined) {
      body = JSON.stringify(req.json);
      headers['content-type'] = req.contentType ?? 'application/json';
    } else if (req.form) {
      body = req.form;
    } else if (req.body) {
      body = new Uint8Array(req.body);
      headers['content-type'] = req.contentType ?? 'application/octet-stream';
    }
    let res: Response;
    let text: string;
    try {
      res = await fetch(url, { method: req.method ?? 'GET', headers, body, signal: AbortSignal.timeout(this.timeoutMs), redirect: 'follow' });
      text = await readLimited(res);
    } catch (err) {
      const name = (err as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError') throw new ApiError('GATEWAY_TIMEOUT', `${this.provider.name} did not answer in time`);
      if (err instanceof ApiError) throw err;
      throw new ApiError('BAD_GATEWAY', `${this.provider.name} could not be reached: ${(err as Error).message}`);
    }
    if (res.status === 401) return { status: 401, headers: res.headers, body: undefined as T };
    if (!res.ok) throw upstreamError(this.provider.name, res.status, text);
    if (req.responseType === 'none' || res.status === 204) return { status: res.status, headers: res.headers, body: undefined as T };
    if (req.responseType === 'text') return { status: res.status, headers: res.headers, body: text as T };
    if (!text) return { status: res.status, headers: res.headers, body: undefined as T };
    try {
      return { status: res.status, headers: res.headers, body: JSON.parse(text) as T };
    } catch {
      throw new ApiError('BAD_GATEWAY', `${this.provider.name} answered with something that is not JSON`);
    }
  }
}

async function readLimited(res: Response): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > MAX_RESPONSE_BYTES) {
    await res.body?.cancel();
    throw new ApiError('BAD_GATEWAY', 'The provider answered with more data than accepted');
  }
  const buf = Buffer.from(await res.arrayBuffer());
  if (buf.length > MAX_RESPONSE_BYTES) throw new ApiError('BAD_GATEWAY', 'The provider answered with more data than accepted');
  return buf.toString('utf8');
}

/** The provider's own message, when it gave one in a usual shape, cut short. */
function upstreamMessage(text: string): string | undefined {
  try {
    const j = JSON.parse(text) as Record<string, unknown>;
    const m =
      j.message ??
      j.error_description ??
      j.error ??
      j.developerMessage ??
      (Array.isArray(j.errors) ? (j.errors[0] as { detail?: unknown })?.detail : undefined);
    if (typeof m === 'string') return m.slice(0, 300);
  } catch {
    /* not JSON */
  }
  const t = text
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return t ? t.slice(0, 300) : undefined;
}

function upstreamError(name: string, status: number, text: string): ApiError {
  const said = upstreamMessage(text);
  const details = { upstream_status: status, ...(said ? { upstream_message: said } : {}) };
  const pick = (code: ErrorCode, msg: string) => new ApiError(code, `${msg}${said ? `: ${said}` : ''}`, { details });
  if (status === 404) return pick('NOT_FOUND', `${name} has no such item`);
  if (status === 403) return pick('PERMISSION_DENIED', `${name} refused: your ${name} account may not do this`);
  if (status === 400 || status === 422) return pick('BAD_REQUEST', `${name} refused the request`);
  if (status === 429) return pick('TOO_MANY_REQUESTS', `${name} is limiting requests; try again later`);
  if (status === 504) return pick('GATEWAY_TIMEOUT', `${name} timed out`);
  return pick('BAD_GATEWAY', `${name} failed (HTTP ${status})`);
}
