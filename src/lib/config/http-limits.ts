// How long a client may take to send a request and how many connections one address may hold: the
// answer to slow bodies and slowloris (docs/security.md, "Slow clients"). Every service reads them.
import { HttpEnv } from './env-schema.js';
import { processEnv, type Env } from './process-env.js';
import { readEnv } from './read-env.js';

export interface HttpLimits {
  /** Headers must be in within this time (Node's headersTimeout). */
  headersTimeoutMs: number;
  /** The whole request, body included, must be in within this time (Node's requestTimeout). */
  requestTimeoutMs: number;
  /** Connections one remote address may hold open at once; 0: no cap. */
  maxConnectionsPerAddress: number;
}

export function httpLimits(env: Env = processEnv()): HttpLimits {
  const e = readEnv(HttpEnv, env);
  const headersTimeoutMs = Math.round(e.OVERLOOK_HEADERS_TIMEOUT_SECONDS * 1000);
  // Node requires the headers deadline to fall within the request deadline.
  const requestTimeoutMs = Math.max(headersTimeoutMs, Math.round(e.OVERLOOK_REQUEST_TIMEOUT_SECONDS * 1000));
  return { headersTimeoutMs, requestTimeoutMs, maxConnectionsPerAddress: e.OVERLOOK_MAX_CONNECTIONS_PER_ADDRESS };
}
