// The one decision function of the access layer (docs/access-model.md). Pure: no I/O, no clock.
// The request hook gathers the facts (principal, route policy, resolved project, acting role) and
// calls it; the key explainer calls the very same function.
import type { ErrorCode } from '../../lib/errors.js';
import { ACCOUNT_CONTROLS, closedToDelegated, roleAllows, type AccessPolicy, type Role, type TokenKind } from './policy.js';
import type { Principal } from './principal.js';
import type { Scope } from './scopes.js';

/** A project as the access layer resolves it: what handlers read from the request. */
export interface ProjectRef {
  id: string;
  exid: string;
}

/** What the hook found out about the project a request touches. */
export type ProjectFact = { found: false } | { found: true; id: string; exid: string };

export interface DecisionInput {
  principal: Principal;
  policy: AccessPolicy;
  /** Undefined until the hook has resolved it (the decision asks for it with `need-project`). */
  project?: ProjectFact;
  /** The acting person's role on that project (the key's owner for keys); null when not a member. */
  role?: Role | null;
  /** The policy's `self` parameter names the acting person themself (set by the hook for people only). */
  self?: boolean;
  /** On `token` routes: the purpose-bound token the route's verifier accepted, if any. */
  token?: TokenGrant | null;
}

/** A purpose-bound token that its verifier accepted: a media or ingestion token speaks for one camera only. */
export interface TokenGrant {
  kind: TokenKind;
  /** The camera a media or ingestion token is bound to; null for a link credential. */
  cameraExid: string | null;
  /** Whom it was issued to (a user id for media tokens, the link's id for a link credential), for logs. */
  subject: string | null;
}

interface Refusal {
  outcome: 'refuse';
  code: ErrorCode;
  message: string;
  headers?: Record<string, string>;
  /** For logs and the explainer: what the route needed and what the caller held. */
  required?: readonly string[];
  held?: readonly string[];
}

export type Decision = { outcome: 'allow'; reason: string } | { outcome: 'need-project' } | Refusal;

const refuse = (code: ErrorCode, message: string, extra: Partial<Refusal> = {}): Refusal => ({ outcome: 'refuse', code, message, ...extra });

export function insufficientScopeHeader(scopes: readonly Scope[]): string {
  return `ApiKey realm="overlook", error="insufficient_scope", scope="${scopes.join(' ')}"`;
}

const UNAUTHENTICATED_CHALLENGE = 'Bearer realm="overlook", ApiKey realm="overlook", header="x-access-key"';

export const tokenChallenge = (kind: TokenKind) =>
  kind === 'media'
    ? 'Token realm="overlook", param="token", error="invalid_token"'
    : kind === 'link'
      ? 'Bearer realm="overlook-site-link", error="invalid_token"'
      : kind === 'node'
        ? 'Relay realm="overlook-nodes", error="invalid_token"'
        : 'Bearer realm="overlook-ingestion", error="invalid_token"';

export function decide(input: DecisionInput): Decision {
  const { principal, policy } = input;
  if (policy.access === 'public') return { outcome: 'allow', reason: 'public endpoint' };

  if (policy.access === 'token') {
    if (principal.kind === 'key') return refuse('ENDPOINT_CLOSED_TO_KEYS', 'This endpoint does not accept API keys', { required: [] });
    if (input.token?.kind === policy.token) {
      return {
        outcome: 'allow',
        reason: input.token.cameraExid ? `${policy.token} token for camera ${input.token.cameraExid}` : `${policy.token} credential ${input.token.subject}`,
      };
    }
    return refuse('UNAUTHORIZED', `This endpoint needs a valid ${policy.token} token for this camera`, {
      headers: { 'www-authenticate': tokenChallenge(policy.token) },
    });
  }

  if (principal.kind === 'anonymous') {
    if (policy.access === 'people' && policy.anonymous) return { outcome: 'allow', reason: 'open to anonymous callers' };
    return refuse('UNAUTHORIZED', 'A credential is required: Authorization: Bearer <JWT> or x-access-key: <API key>', {
      headers: { 'www-authenticate': UNAUTHENTICATED_CHALLENGE },
    });
  }

  if (principal.kind === 'key') {
    // Step 1: closed endpoints, endpoints declaring no scopes (fail closed).
    if (policy.access !== 'scoped' || policy.scopes.length === 0) {
      return refuse('ENDPOINT_CLOSED_TO_KEYS', 'This endpoint does not accept API keys', { required: [] });
    }
    // Step 2: the key must hold at least one scope that reaches the endpoint.
    if (!policy.scopes.some((s) => principal.scopes.has(s))) {
      return refuse('INSUFFICIENT_SCOPE', `This endpoint needs one of these scopes: ${policy.scopes.join(', ')}`, {
        headers: { 'www-authenticate': insufficientScopeHeader(policy.scopes) },
        required: policy.scopes,
        held: [...principal.scopes],
      });
    }
    // Step 3 starts here: a key with no projects reaches nothing.
    if (principal.projectIds.size === 0) {
      return refuse('PROJECT_NOT_ALLOWED', 'This API key lists no projects, so it reaches nothing');
    }
  }

  // An app's OAuth token reaches what keys reach, and only the people routes that declare it; never
  // what controls the account (the consent page says so, from the same catalogue).
  if (principal.kind === 'user' && principal.delegated && closedToDelegated(policy)) {
    return refuse(
      'NOT_ALLOWED_WITH_OAUTH_TOKEN',
      (policy.access === 'scoped' || policy.access === 'people') && policy.account
        ? `An app's OAuth access token never manages ${ACCOUNT_CONTROLS[policy.account]}; sign in for this`
        : 'An OAuth access token reaches only the endpoints open to delegated access (those with API-key scopes); sign in for this one',
    );
  }

  // People-only conditions on the person (keys never get here on people routes: refused above).
  if (policy.access === 'people' && principal.kind === 'user') {
    if (policy.admin && (!principal.isAdmin || principal.impersonatorId)) {
      return principal.impersonatorId
        ? refuse('NOT_ALLOWED_WHILE_IMPERSONATING', 'Platform administration is not available in an impersonated session', { required: ['platform_admin'] })
        : refuse('PERMISSION_DENIED', 'This endpoint is for platform administrators', { required: ['platform_admin'] });
    }
    if (policy.notImpersonated && principal.impersonatorId) {
      return refuse('NOT_ALLOWED_WHILE_IMPERSONATING', 'Not allowed in an impersonated session: API keys and passwords are only changed by their owner');
    }
  }

  const source = policy.project;
  if (!source || source.from === 'list') {
    return { outcome: 'allow', reason: source ? 'list endpoint: results limited to the caller’s projects' : 'endpoint touches no project' };
  }
  if (input.project === undefined) return { outcome: 'need-project' };

  const needed = (principal.kind === 'user' && input.self && policy.self?.role) || policy.role || 'viewer';
  const project = input.project;
  if (principal.kind === 'key') {
    if (!project.found || !principal.projectIds.has(project.id)) {
      return refuse('PROJECT_NOT_ALLOWED', 'The project this request touches is not on this API key’s list');
    }
    // Step 4: a key never exceeds its owner.
    if (!roleAllows(input.role, needed)) {
      return refuse('PERMISSION_DENIED', `The key’s owner needs the ${needed} role on this project`, {
        required: [needed],
        held: input.role ? [input.role] : [],
      });
    }
    return { outcome: 'allow', reason: `key’s owner is ${input.role} on ${project.exid}` };
  }

  // A person: what they cannot see does not exist for them; what they see but may not do is 403.
  if (!project.found || !input.role) return refuse('NOT_FOUND', 'Not found');
  if (!roleAllows(input.role, needed)) {
    return refuse('PERMISSION_DENIED', `This action needs the ${needed} role on this project`, { required: [needed], held: [input.role] });
  }
  return { outcome: 'allow', reason: `${input.role} on ${project.exid}` };
}
