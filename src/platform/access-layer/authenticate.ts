// Turns a request's credential headers into a Principal (docs/access-model.md, Credentials):
// `Authorization: Bearer <JWT>` for people, `x-access-key: <key>` for API keys, nothing else.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../lib/errors.js';
import { looksLikeApiKey } from '../../lib/auth/api-key-format.js';
import { bearerToken } from '../../lib/auth/bearer.js';
import { CREDENTIAL_PREFIX } from '../../lib/site-link/protocol.js';
import { ANONYMOUS, type Principal } from '../access/index.js';
import type { ActiveKey, KeyStore } from '../api-keys/index.js';
import type { LiveSession, SessionStore } from '../auth/index.js';

const BEARER = 'Bearer realm="overlook"';
const APIKEY = 'ApiKey realm="overlook", header="x-access-key"';

const unauthorized = (message: string, challenge: string) => new ApiError('UNAUTHORIZED', message, { headers: { 'www-authenticate': challenge } });

const header = (req: FastifyRequest, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(',') : v;
};

/** Node keeps only the first of several Authorization headers, so they are counted in the raw list. */
function authorizationHeaders(req: FastifyRequest): number {
  const raw = req.raw.rawHeaders;
  let n = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length === 13 && raw[i]!.toLowerCase() === 'authorization') n++;
  return n;
}

/**
 * A site recorder's link credential opens its connection only: sent anywhere else it is refused as such,
 * valid, revoked or made up alike, without looking it up (docs/site-link.md).
 */
export function refuseLinkCredential(req: FastifyRequest): void {
  const authorization = header(req, 'authorization');
  const token = authorization === undefined ? undefined : bearerToken(authorization);
  if (token?.startsWith(CREDENTIAL_PREFIX)) {
    throw new ApiError('LINK_CREDENTIAL_NOT_ACCEPTED', 'A site link credential is accepted only by the recorder link connection');
  }
}

/** The credential a request carries, once its headers are found well formed. */
type Credential = { kind: 'key'; value: string } | { kind: 'bearer'; token: string } | { kind: 'none' };
const NO_CREDENTIAL: Credential = { kind: 'none' };

/** Which credential the request carries; throws the 401 for a misplaced, doubled or malformed one. */
function credentialOf(req: FastifyRequest): Credential {
  const authorization = header(req, 'authorization');
  const accessKey = header(req, 'x-access-key');

  if (header(req, 'x-api-key') !== undefined) {
    throw unauthorized('x-api-key is not accepted by the main API: send API keys in x-access-key, JWTs as Authorization: Bearer', `${BEARER}, ${APIKEY}`);
  }
  if (authorization !== undefined && authorizationHeaders(req) > 1) {
    throw unauthorized('Send one Authorization header, not several', `${BEARER}, error="invalid_request"`);
  }
  if (authorization !== undefined && accessKey !== undefined) {
    throw unauthorized('Send one credential: either Authorization or x-access-key, not both', `${BEARER}, ${APIKEY}`);
  }
  if (accessKey !== undefined) return { kind: 'key', value: accessKey.trim() };
  if (authorization !== undefined) {
    const token = bearerToken(authorization);
    if (token === undefined) throw unauthorized('Authorization must be "Bearer <JWT>"', `${BEARER}, error="invalid_request"`);
    refuseLinkCredential(req);
    if (looksLikeApiKey(token)) {
      throw unauthorized('API keys are accepted only in the x-access-key header', `${APIKEY}, error="invalid_request"`);
    }
    return { kind: 'bearer', token };
  }
  return NO_CREDENTIAL;
}

const keyPrincipal = (key: ActiveKey): Principal => ({ kind: 'key', userId: key.userId, keyId: key.id, scopes: key.scopes, projectIds: key.projectIds });

const personPrincipal = (session: LiveSession): Principal => ({
  kind: 'user',
  userId: session.userId,
  sessionId: session.id,
  isAdmin: session.isAdmin,
  impersonatorId: session.impersonatorId ?? null,
  delegated: session.delegated ?? false,
});

export async function authenticate(req: FastifyRequest, keys: KeyStore, sessions: SessionStore, reply?: FastifyReply): Promise<Principal> {
  const credential = credentialOf(req);

  if (credential.kind === 'key') {
    const found = await keys.lookup(credential.value);
    if (!found.ok) {
      const why =
        found.reason === 'malformed' || found.reason === 'unknown'
          ? 'is not a valid API key'
          : found.reason === 'disabled'
            ? 'belongs to a disabled account'
            : `is ${found.reason}`;
      throw unauthorized(`The x-access-key value ${why}`, `${APIKEY}, error="invalid_key"`);
    }
    // The key's own limits (address allow-list, rate), before anything about the endpoint is looked at.
    const admitting = keys.admit(found.key, req.ip);
    if (admitting) {
      const rateLimit = await admitting;
      if (rateLimit) reply?.headers(rateLimit);
    }
    return keyPrincipal(found.key);
  }

  if (credential.kind === 'bearer') {
    const found = await sessions.lookup(credential.token);
    if (!found.ok) {
      const why = found.reason === 'ended' ? 'belongs to a session that has ended' : found.reason === 'expired' ? 'has expired' : 'is not valid';
      throw unauthorized(`The bearer token ${why}`, `${BEARER}, error="invalid_token"`);
    }
    return personPrincipal(found.session);
  }

  return ANONYMOUS;
}
