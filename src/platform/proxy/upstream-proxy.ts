// The CRM and CMS proxies: a signed-in person's request passes through to a configured upstream
// service with the platform's own server-side credential. Only allow-listed paths pass; headers pass
// by allow-list both ways (none of our cookies or credentials goes up, no upstream cookie comes back);
// the exchange has a deadline and the answer a size limit; upstream failures are a clear 502 or 504.
import { type Agent, request, errors as undiciErrors } from 'undici';
import { ApiError } from '../../lib/errors.js';
import type { UpstreamConfig } from '../../lib/config/admin-config.js';

/** Request headers a client may pass upstream; everything else (cookies, credentials, hop-by-hop) stays. */
const REQUEST_HEADERS = ['accept', 'accept-language', 'content-type', 'if-match', 'if-none-match', 'if-modified-since', 'if-unmodified-since'];
/** Response headers passed back; never set-cookie, never the upstream's auth challenges or server details. */
const RESPONSE_HEADERS = ['content-type', 'content-language', 'content-disposition', 'cache-control', 'etag', 'last-modified', 'expires'];

export interface ProxyRequest {
  method: string;
  /** The path after the proxy prefix, exactly as received (still percent-encoded), starting with `/`. */
  path: string;
  /** The raw query string without `?`, or ''. */
  query: string;
  headers: Record<string, string | string[] | undefined>;
  body?: Buffer;
  user: { id: string; email?: string };
}

export interface ProxyAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Whether `path` (segments) matches an allow-list pattern: `*` one segment, a final `**` any rest. */
export function pathAllowed(patterns: readonly string[], path: string): boolean {
  const segs = path.split('/').slice(1);
  return patterns.some((pattern) => {
    const ps = pattern.split('/').slice(1);
    for (let i = 0; i < ps.length; i++) {
      if (ps[i] === '**' && i === ps.length - 1) return segs.length >= ps.length;
      if (i >= segs.length) return false;
      if (ps[i] !== '*' && ps[i] !== segs[i]) return false;
    }
    return segs.length === ps.length;
  });
}

/** Refuses paths that could step outside the allow-list once decoded by the upstream. */
export function checkPath(path: string): void {
  const bad =
    !path.startsWith('/') ||
    path.length > 2000 ||
    /%(2f|5c|2e|00)/i.test(path) ||
    /[\\\s]/.test(path) ||
    path
      .split('/')
      .slice(1)
      .some((s) => s === '' || s === '.' || s === '..');
  if (bad) throw new ApiError('VALIDATION_ERROR', 'path: not a plain upstream path', { details: [{ field: 'path', message: 'invalid' }] });
}

export class UpstreamProxy {
  constructor(
    readonly name: 'crm' | 'cms',
    private readonly cfg: UpstreamConfig | undefined,
    private readonly timeoutMs: number,
    private readonly maxBytes: number,
    private readonly dispatcher: Agent,
  ) {}

  get configured(): boolean {
    return !!this.cfg;
  }

  async forward(req: ProxyRequest): Promise<ProxyAnswer> {
    const label = this.name.toUpperCase();
    const cfg = this.cfg;
    if (!cfg) throw new ApiError('NOT_FOUND', `The ${label} proxy is not configured`);
    checkPath(req.path);
    if (!pathAllowed(cfg.paths, req.path)) throw new ApiError('PERMISSION_DENIED', `${req.path} is not on the ${label} proxy's allow-list`);

    const headers: Record<string, string> = {};
    for (const h of REQUEST_HEADERS) {
      const v = req.headers[h];
      if (typeof v === 'string') headers[h] = v;
    }
    headers['x-overlook-user-id'] = req.user.id;
    if (req.user.email) headers['x-overlook-user-email'] = req.user.email;
    if (cfg.token) headers.authorization = `Bearer ${cfg.token}`;

    const url = `${cfg.baseUrl}${req.path}${req.query ? `?${req.query}` : ''}`;
    const signal = AbortSignal.timeout(this.timeoutMs);
    let status: number;
    let resHeaders: Record<string, string | string[] | undefined>;
    const chunks: Buffer[] = [];
    try {
      const res = await request(url, {
        method: req.method as 'GET',
        headers,
        body: req.body && req.body.length > 0 ? req.body : undefined,
        dispatcher: this.dispatcher,
        signal,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      status = res.statusCode;
      resHeaders = res.headers;
      let size = 0;
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > this.maxBytes) {
          res.body.destroy();
          throw new ApiError('BAD_GATEWAY', `The ${label} answered with more than ${this.maxBytes} bytes`);
        }
        chunks.push(chunk as Buffer);
      }
    } catch (err) {
      if (err instanceof ApiError) throw err;
      const timedOut =
        signal.aborted ||
        err instanceof undiciErrors.HeadersTimeoutError ||
        err instanceof undiciErrors.BodyTimeoutError ||
        (err as Error).name === 'TimeoutError';
      if (timedOut) throw new ApiError('GATEWAY_TIMEOUT', `The ${label} did not answer within ${this.timeoutMs} ms`);
      throw new ApiError('BAD_GATEWAY', `The ${label} could not be reached`);
    }

    // Our credential was refused, the upstream failed, or it tried to send the browser elsewhere:
    // none of that is the caller's doing, and none of its details are theirs to see.
    if (status === 401 || status === 407) throw new ApiError('BAD_GATEWAY', `The ${label} refused the platform's credentials`);
    if (status >= 500) throw new ApiError('BAD_GATEWAY', `The ${label} failed (status ${status})`);
    if (status >= 300 && status < 400 && status !== 304)
      throw new ApiError('BAD_GATEWAY', `The ${label} answered with a redirect, which the proxy does not follow`);

    const out: Record<string, string> = {};
    for (const h of RESPONSE_HEADERS) {
      const v = resHeaders[h];
      if (typeof v === 'string') out[h] = v;
    }
    return { status, headers: out, body: Buffer.concat(chunks) };
  }
}
