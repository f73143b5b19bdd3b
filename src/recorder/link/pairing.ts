// Exchanges a pairing code for the link's credential (`POST <platform> + PAIR_PATH`), through the
// proxy when one is set. A refused code or an unreachable platform is an ApiError the CLI and
// `POST /api/link` both show as it is.
import { EnvHttpProxyAgent, fetch, type Dispatcher } from 'undici';
import { Compile } from 'typebox/compile';
import { ApiError, validation } from '../../lib/errors.js';
import { PAIR_PATH, PairAnswer, type PairBody } from '../../lib/site-link/protocol.js';
import type { RecorderConfig } from '../config.js';

const checkAnswer = Compile(PairAnswer);

/** The dispatcher the link goes through: the proxy the environment names (and NO_PROXY), or none. */
export function linkDispatcher(proxy: RecorderConfig['proxy']): Dispatcher {
  // Empty strings, not undefined: undici would otherwise read the environment itself, past our config.
  return new EnvHttpProxyAgent({ httpProxy: proxy.httpProxy ?? '', httpsProxy: proxy.httpsProxy ?? '', noProxy: proxy.noProxy ?? '' });
}

/** The platform's base URL as given, checked: http(s), no query, no credentials; without a trailing slash. */
export function platformBase(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw validation('platform_url', 'is not a URL');
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw validation('platform_url', 'must be an http or https URL');
  if (u.username || u.password || u.search || u.hash) throw validation('platform_url', 'must have no credentials, query or fragment');
  return u.toString().replace(/\/+$/, '');
}

export async function pair(platformUrl: string, body: PairBody, dispatcher: Dispatcher): Promise<PairAnswer> {
  const base = platformBase(platformUrl);
  let res: Awaited<ReturnType<typeof fetch>>;
  try {
    res = await fetch(`${base}${PAIR_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      dispatcher,
      redirect: 'error',
      signal: AbortSignal.timeout(20_000),
    });
  } catch (err) {
    const cause = (err as { cause?: { message?: string } }).cause?.message;
    throw new ApiError('BAD_GATEWAY', `The platform at ${base} could not be reached: ${cause ?? (err as Error).message}`);
  }
  const data = (await res.json().catch(() => null)) as { message?: unknown } | null;
  if (res.status >= 400 && res.status < 500) {
    const why = typeof data?.message === 'string' ? data.message : `HTTP ${res.status}`;
    throw validation('code', `the platform refused the pairing code (wrong, used or expired): ${why}`);
  }
  if (res.status !== 200 || !checkAnswer.Check(data)) throw new ApiError('BAD_GATEWAY', `The platform at ${base} gave no link (HTTP ${res.status})`);
  return data;
}
