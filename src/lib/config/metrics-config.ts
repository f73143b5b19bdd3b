// Who may read a service's Prometheus metrics (`GET /metrics`, docs/deploy.md, Metrics): a bearer token,
// client networks, or both. Neither set: the endpoint does not exist and nothing is measured. Off by
// default because a proxy on the same host makes every client look like loopback.
import { HttpEnv } from './env-schema.js';
import { processEnv, type Env } from './process-env.js';
import { readEnv } from './read-env.js';
import { parseNetworks, type Network } from '../net/networks.js';

export interface MetricsConfig {
  /** `Authorization: Bearer <token>` opens /metrics; null: no token opens it. */
  token: string | null;
  /** Client networks that may read /metrics without the token. */
  allow: Network[];
}

export const METRICS_OFF: MetricsConfig = { token: null, allow: [] };

/** Shortest token accepted: anything shorter could be guessed. */
const MIN_TOKEN_LENGTH = 16;

export const metricsEnabled = (c: MetricsConfig): boolean => c.token !== null || c.allow.length > 0;

export function metricsConfig(env: Env = processEnv()): MetricsConfig {
  const e = readEnv(HttpEnv, env);
  const token = e.OVERLOOK_METRICS_TOKEN ?? null;
  // The value is a secret: the message names the variable, never the value.
  if (token !== null && token.length < MIN_TOKEN_LENGTH) throw new Error(`OVERLOOK_METRICS_TOKEN must be at least ${MIN_TOKEN_LENGTH} characters long`);
  // It travels in a header: printable ASCII without spaces.
  if (token !== null && !/^[\x21-\x7e]+$/.test(token)) throw new Error('OVERLOOK_METRICS_TOKEN may hold only printable ASCII characters, no spaces');
  return { token, allow: parseNetworks(e.OVERLOOK_METRICS_ALLOW, 'OVERLOOK_METRICS_ALLOW') };
}
