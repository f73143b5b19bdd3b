// Logger options shared by every service: credentials never reach a log line.
import type { FastifyServerOptions } from 'fastify';

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-access-key"]',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
];

/** `level` is the service's OVERLOOK_LOG_LEVEL, passed down from its config; apps built without one log at info. */
export function loggerOptions(level = 'info'): FastifyServerOptions['logger'] {
  if (level === 'silent') return false;
  return {
    level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: {
      // The URL may carry a media token (?token=…); log the path and the query's names only.
      req(req) {
        return { method: req.method, url: redactQuery(req.url), remoteAddress: req.ip };
      },
    },
  };
}

/** `/a?token=secret&x=1` → `/a?token=[redacted]&x=1` for every credential-bearing parameter. */
export function redactQuery(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  return url.slice(0, q) + url.slice(q).replace(/([?&](?:token|access_token|key|api_key|code)=)[^&]*/gi, '$1[redacted]');
}
