// Whether an error says the database could not be reached (rather than that a query was wrong): the
// request is then answered 503 with Retry-After, and the pool opens new connections on the next query
// (docs/deploy.md, A lost database connection).

/** Network errors of the socket to the database. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/** PostgreSQL SQLSTATEs of a server going away or not accepting connections yet. */
const PG_STATES = new Set([
  '57P01', // admin_shutdown (the session was terminated)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, shutting down, in recovery)
  '53300', // too_many_connections
]);

/** What the pg driver says when the socket closed under a client, or a client is used after that. */
const DRIVER_MESSAGES = [/^Connection terminated/, /not queryable/, /timeout exceeded when trying to connect/];

function unreachable(err: { code?: unknown; message?: unknown }): boolean {
  const code = typeof err.code === 'string' ? err.code : undefined;
  if (code && (SOCKET_CODES.has(code) || PG_STATES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  const message = typeof err.message === 'string' ? err.message : '';
  return DRIVER_MESSAGES.some((m) => m.test(message));
}

/** True when PostgreSQL refused a connection because it holds as many as it allows (too many clients). */
export function isDatabaseFull(error: unknown): boolean {
  return !!error && typeof error === 'object' && (error as { code?: unknown }).code === '53300';
}

/**
 * True for an error, as the pg driver throws it, that says the database is out of reach (an
 * AggregateError of connection attempts included). Wrapped errors (`cause`) are not looked into: an
 * HTTP client's failure to reach a camera wraps the same socket codes.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const err = error as { code?: unknown; message?: unknown; errors?: unknown };
  if (unreachable(err)) return true;
  return Array.isArray(err.errors) && err.errors.length > 0 && err.errors.every((e) => !!e && typeof e === 'object' && unreachable(e));
}
