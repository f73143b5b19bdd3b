// The one hook that applies the access rules to every route, before the body is parsed or validated
// (docs/access-model.md: a refused request learns nothing about the endpoint). Routes must declare a policy:
// the app refuses to start when one does not, so nothing is reachable by accident. The check is made for
// each route when it is registered, with its policy in hand (no lookup per request); public routes get
// none, and only routes whose project comes from the body get the second check after parsing.
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler, preValidationAsyncHookHandler, RouteOptions } from 'fastify';
import { addToRequestLog } from '../../lib/logger.js';
import { ApiError } from '../../lib/errors.js';
import { authenticate, refuseLinkCredential } from './authenticate.js';
import type { KeyStore } from '../api-keys/index.js';
import type { SessionStore } from '../auth/index.js';
import {
  decide,
  type Decision,
  type ProjectFact,
  type ProjectRef,
  type TokenGrant,
  type AccessPolicy,
  type ProjectSource,
  type Role,
  type TokenKind,
  ANONYMOUS,
  type Principal,
  isScope,
  policyOf,
  type RegisteredRoute,
  type TokenVerifier,
} from '../access/index.js';
import type { AccessDirectory } from '../directory/index.js';
import { auditContext, type AuditLog } from '../audit/index.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call this route. Required on every route of the main API. */
    access?: AccessPolicy;
  }
  interface FastifyRequest {
    principal: Principal;
    /** The project the request touches, once the access layer has resolved and allowed it. */
    project: ProjectRef | null;
    /** The acting person's role on `project`. */
    role: Role | null;
    /** Set when the project comes from the body and is checked after parsing. */
    accessPendingBody: boolean;
    /** On `token` routes: the media or ingestion token that was accepted. */
    tokenGrant: TokenGrant | null;
  }
}

export interface AccessDeps {
  keys: KeyStore;
  sessions: SessionStore;
  directory: AccessDirectory;
  /** One verifier per token kind, registered by the feature that issues the tokens. None: refused. */
  tokenVerifiers: Partial<Record<TokenKind, TokenVerifier>>;
  /** The audit log: requests refused to API keys are recorded there (sampled). */
  audit?: Pick<AuditLog, 'keyRefused'>;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 && v.length <= 200 ? v : undefined);

/** Where a route's project is named: a camera's or a project's exid in the request, none, or a record to read. */
type ProjectLocator = { by: 'camera' | 'project'; exid: string } | { by: 'none' } | { by: 'record'; source: Extract<ProjectSource, { from: 'record' }> };

const NO_PROJECT: ProjectLocator = { by: 'none' };

function locateProject(source: ProjectSource, req: Pick<FastifyRequest, 'params' | 'query' | 'body'>): ProjectLocator {
  const named = (by: 'camera' | 'project', value: unknown): ProjectLocator => {
    const exid = str(value);
    return exid ? { by, exid } : NO_PROJECT;
  };
  switch (source.from) {
    case 'path-project':
      return named('project', (req.params as Record<string, unknown>).exid);
    case 'path-camera':
      return named('camera', (req.params as Record<string, unknown>).camera_exid);
    case 'query-camera':
      return named('camera', ((req.query ?? {}) as Record<string, unknown>).camera_exid);
    case 'body-project':
      return named('project', (req.body as Record<string, unknown> | undefined)?.project_exid);
    case 'record':
      return { by: 'record', source };
    case 'list':
      return NO_PROJECT;
  }
}

/** The project a request touches, from where its route says it comes. The key explainer calls it too. */
export async function resolveProject(
  source: ProjectSource,
  req: Pick<FastifyRequest, 'params' | 'query' | 'body'>,
  dir: AccessDirectory,
): Promise<ProjectFact> {
  const where = locateProject(source, req);
  switch (where.by) {
    case 'camera':
      return dir.projectOfCamera(where.exid);
    case 'project':
      return dir.projectByExid(where.exid);
    case 'record': {
      const ref = await where.source.resolve(req as FastifyRequest);
      return ref ? { found: true, ...ref } : { found: false };
    }
    case 'none':
      return { found: false };
  }
}

/** `url`: the route's pattern, as the audit log names the endpoint. */
async function enforce(req: FastifyRequest, url: string, decision: Decision, audit?: AccessDeps['audit']): Promise<void> {
  if (decision.outcome !== 'refuse') return;
  const p = req.principal;
  if (p.kind === 'key' && audit) {
    // Sampled: most refusals write nothing; the audit log never fails the answer.
    await audit.keyRefused(auditContext(req), p.keyId, decision.code, { method: req.method, url });
  }
  // Said on the request's one log line (docs/security.md, Logs).
  addToRequestLog(req, {
    access: {
      code: decision.code,
      principal: p.kind,
      key_id: p.kind === 'key' ? p.keyId : undefined,
      user_id: p.kind === 'anonymous' ? undefined : p.userId,
      required: decision.required,
      held: decision.held,
    },
  });
  throw new ApiError(decision.code, decision.message, { headers: decision.headers });
}

async function decideWithProject(req: FastifyRequest, url: string, policy: AccessPolicy, deps: AccessDeps): Promise<void> {
  const source = (policy as { project?: ProjectSource }).project!;
  const project = await resolveProject(source, req, deps.directory);
  const principal = req.principal;
  const role = project.found && principal.kind !== 'anonymous' ? await deps.directory.roleOf(principal.userId, project.id) : null;
  const self = principal.kind === 'user' && isSelf(policy, req, principal.userId);
  const decision = decide({ principal, policy, project, role, self });
  await enforce(req, url, decision, deps.audit);
  holdProject(req, project, role);
}

/** Whether the route's `self` path parameter is the caller's own user id. */
function isSelf(policy: AccessPolicy, req: FastifyRequest, userId: string): boolean {
  const param = (policy as { self?: { param: string } }).self?.param;
  return !!param && (req.params as Record<string, unknown> | undefined)?.[param] === userId;
}

/** What an allowed request carries on for its handler: the project it touches and the acting role. */
function holdProject(req: FastifyRequest, project: ProjectFact, role: Role | null): void {
  if (project.found) req.project = { id: project.id, exid: project.exid };
  req.role = role;
}

/** The check of one route's policy, made when the request arrives (before the body is read). */
function requestCheck(policy: Exclude<AccessPolicy, { access: 'public' }>, url: string, deps: AccessDeps): onRequestAsyncHookHandler {
  if (policy.access === 'token') {
    const verify = deps.tokenVerifiers[policy.token];
    const tokenCheck: onRequestAsyncHookHandler = async (req, reply) => {
      // The route's own token first; a key sent here is still identified, so a valid one learns
      // that the endpoint is closed to keys (403) and a bad one gets 401, as everywhere else.
      req.tokenGrant = verify ? await verify(req) : null;
      if (!req.tokenGrant && policy.token !== 'link') refuseLinkCredential(req);
      if (!req.tokenGrant && req.headers['x-access-key'] !== undefined) req.principal = await authenticate(req, deps.keys, deps.sessions, reply);
      return enforce(req, url, decide({ principal: req.principal, policy, token: req.tokenGrant }), deps.audit);
    };
    return tokenCheck;
  }
  // Where anonymous callers are welcome (sign-in), a stale or wrong credential is ignored.
  const anonymousWelcome = policy.access === 'people' && policy.anonymous === true;
  const fromBody = (policy as { project?: ProjectSource }).project?.from === 'body-project';
  const check: onRequestAsyncHookHandler = async (req, reply) => {
    try {
      req.principal = await authenticate(req, deps.keys, deps.sessions, reply);
    } catch (err) {
      if (!anonymousWelcome || (err instanceof ApiError && err.code === 'LINK_CREDENTIAL_NOT_ACCEPTED')) throw err;
    }
    const decision = decide({ principal: req.principal, policy });
    if (decision.outcome !== 'need-project') return enforce(req, url, decision, deps.audit);
    if (fromBody) {
      req.accessPendingBody = true;
      return;
    }
    await decideWithProject(req, url, policy, deps);
  };
  return check;
}

/** The second check of a route whose project is named in the body, once the body is parsed. */
function bodyCheck(policy: AccessPolicy, url: string, deps: AccessDeps): preValidationAsyncHookHandler {
  return async (req) => {
    if (!req.accessPendingBody) return;
    const exid = str((req.body as Record<string, unknown> | undefined)?.project_exid);
    // A person's body without a project is left to validation (400); a key must name one it may touch.
    if (!exid && req.principal.kind === 'user') return;
    await decideWithProject(req, url, policy, deps);
  };
}

/** A route's own hooks of one kind as a list (Fastify takes one function or an array). */
const hooksOf = <T>(h: T | T[] | undefined): T[] => (h === undefined ? [] : Array.isArray(h) ? h : [h]);

/** Who made the request, for routes the access check has not run on (public ones): nobody. */
const principalSlot = Symbol('principal');

export function accessLayer(deps: AccessDeps, registry: RegisteredRoute[]) {
  return fp(async function accessPlugin(app: FastifyInstance) {
    // Public routes run no check: their principal reads as ANONYMOUS without one being set.
    app.decorateRequest(principalSlot as unknown as string, null);
    app.decorateRequest('principal', {
      getter(this: FastifyRequest): Principal {
        return (this as unknown as Record<symbol, Principal | null>)[principalSlot] ?? ANONYMOUS;
      },
      setter(this: FastifyRequest, p: Principal) {
        (this as unknown as Record<symbol, Principal | null>)[principalSlot] = p;
      },
    } as never);
    app.decorateRequest('project', null);
    app.decorateRequest('role', null);
    app.decorateRequest('accessPendingBody', false);
    app.decorateRequest('tokenGrant', null);

    app.addHook('onRoute', (route: RouteOptions) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) registry.push({ method, url: route.url, options: route });
      const policy = route.config?.access;
      if (policy?.access === 'scoped') {
        for (const s of policy.scopes) if (!isScope(s)) throw new Error(`route ${route.url} names unknown scope ${s}`);
      }
      // No policy: the app does not start (onReady below). Public: nothing to check.
      if (!policy || policy.access === 'public') return;
      // First among the route's own hooks, so nothing of the route runs before the check.
      route.onRequest = [requestCheck(policy, route.url, deps), ...hooksOf(route.onRequest)];
      if ((policy as { project?: ProjectSource }).project?.from === 'body-project') {
        route.preValidation = [bodyCheck(policy, route.url, deps), ...hooksOf(route.preValidation)];
      }
    });

    // Fail closed: a route without a declared policy stops the app from starting.
    app.addHook('onReady', async () => {
      const missing = registry.filter((r) => !policyOf(r));
      if (missing.length > 0) {
        throw new Error(`routes without an access policy: ${missing.map((r) => `${r.method} ${r.url}`).join(', ')}`);
      }
    });
  });
}
