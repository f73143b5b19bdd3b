// The vocabulary shared by the access hook, the scope map, the explainer and the features that issue
// purpose-bound tokens: a route as registered with its policy, and a token verifier.
import type { FastifyRequest, RouteOptions } from 'fastify';
import type { TokenGrant } from './decide.js';
import type { AccessPolicy } from './policy.js';

/**
 * Checks a purpose-bound token on a request (from wherever that kind travels: `?token=`, a header)
 * and answers what it grants, or null. Bound to the path's camera: a token for another camera is null.
 */
export type TokenVerifier = (req: FastifyRequest) => Promise<TokenGrant | null>;

/** Routes registered so far, with their policies: the source of the scope map. */
export interface RegisteredRoute {
  method: string;
  url: string;
  options: RouteOptions;
}

/** A registered route's policy, read at call time (a child context's onRoute hook may have set it). */
export const policyOf = (r: RegisteredRoute): AccessPolicy | undefined => r.options.config?.access;
