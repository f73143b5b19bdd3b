// The CRM and CMS proxies: a signed-in person's request passes through to a configured upstream
// service with the platform's own server-side credential. Only allow-listed paths pass; headers pass
// by allow-list both ways (none of our cookies or credentials goes up, no upstream cookie comes back);
// the exchange has a deadline and the answer a size limit; upstream failures are a clear 502 or 504.
import type { Readable } from 'node:stream';
import type { FastifyReply, HTTPMethods } from 'fastify';
import '@fastify/reply-from';
import type { Agent } from 'undici';
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

/** What the proxy makes of the upstream's status: its failures and redirects are none of the caller's business. */
function refusal(label: string, status: number): ApiError | null {
  if (status === 401 || status === 407) return new ApiError('BAD_GATEWAY', `The ${label} refused the platform's credentials`);
  if (status >= 500) return new ApiError('BAD_GATEWAY', `The ${label} failed (status ${status})`);
  if (status >= 300 && status < 400 && status !== 304)
    return new ApiError('BAD_GATEWAY', `The ${label} answered with a redirect, which the proxy does not follow`);
  return null;
}

/** The whole answer, or an error once it passes `maxBytes` or the deadline. */
function readAnswer(stream: Readable, maxBytes: number, deadline: number, label: string, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const fail = (err: ApiError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stream.destroy();
      reject(err);
    };
    const timer = setTimeout(
      () => fail(new ApiError('GATEWAY_TIMEOUT', `The ${label} did not answer within ${timeoutMs} ms`)),
      Math.max(0, deadline - Date.now()),
    );
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) fail(new ApiError('BAD_GATEWAY', `The ${label} answered with more than ${maxBytes} bytes`));
      else chunks.push(chunk);
    });
    stream.on('end', () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(Buffer.concat(chunks));
    });
    stream.on('error', () => fail(new ApiError('BAD_GATEWAY', `The ${label} could not be reached`)));
  });
}

export class UpstreamProxy {
  constructor(
    readonly name: 'crm' | 'cms',
    private readonly cfg: UpstreamConfig | undefined,
    private readonly timeoutMs: number,
    private readonly maxBytes: number,
    /** The connection pool @fastify/reply-from sends through (routes.ts registers it). */
    readonly dispatcher: Agent,
  ) {}

  get configured(): boolean {
    return !!this.cfg;
  }

  /** Answers `reply` from the upstream: checks first, then @fastify/reply-from with our headers, limits and errors. */
  forward(reply: FastifyReply, req: ProxyRequest): FastifyReply {
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

    // The exchange has one deadline; undici's header and body timeouts alone would let a trickle run on.
    const deadline = Date.now() + this.timeoutMs;
    const failWith = (err: ApiError) => {
      for (const h of RESPONSE_HEADERS) reply.removeHeader(h);
      reply.send(err);
    };
    const body = req.body && req.body.length > 0 ? req.body : null;
    return reply.from(`${cfg.baseUrl}${req.path}`, {
      method: req.method as HTTPMethods,
      queryString: () => req.query,
      body,
      contentType: body ? String(req.headers['content-type'] ?? 'application/octet-stream') : undefined,
      timeout: this.timeoutMs,
      rewriteRequestHeaders: () => headers,
      rewriteHeaders: (upstream) => {
        const out: Record<string, string> = {};
        for (const h of RESPONSE_HEADERS) {
          const v = upstream[h];
          if (typeof v === 'string') out[h] = v;
        }
        return out;
      },
      onResponse: (_request, _reply, res) => {
        // At run time the upstream answer, as @fastify/reply-from's README describes it.
        const answer = res as unknown as { statusCode: number; stream: Readable };
        const refused = refusal(label, answer.statusCode);
        if (refused) {
          answer.stream.destroy();
          return failWith(refused);
        }
        readAnswer(answer.stream, this.maxBytes, deadline, label, this.timeoutMs).then((bytes) => reply.send(bytes), failWith);
      },
      onError: (_reply, { error }) => {
        const timedOut = (error as { statusCode?: number }).statusCode === 504;
        failWith(
          timedOut
            ? new ApiError('GATEWAY_TIMEOUT', `The ${label} did not answer within ${this.timeoutMs} ms`)
            : new ApiError('BAD_GATEWAY', `The ${label} could not be reached`),
        );
      },
    });
  }
}
