// The one hook that applies the access rules to every route, before the body is parsed or validated
// (docs/access-model.md: a refused request learns nothing about the endpoint). Routes must declare a policy:
// the app refuses to start when one does not, so nothing is reachable by accident.
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../lib/errors.js';
import { authenticate } from './authenticate.js';
import type { KeyStore } from '../api-keys/key-store.js';
import type { SessionStore } from '../auth/session-store.js';
import { decide, type Decision, type ProjectFact, type TokenGrant } from '../access/decide.js';
import type { AccessDirectory, ProjectRef } from '../directory/directory.js';
import type { AccessPolicy, ProjectSource, Role, TokenKind } from '../access/policy.js';
import { ANONYMOUS, type Principal } from '../access/principal.js';
import { isScope } from '../access/scopes.js';
import { policyOf, type RegisteredRoute, type TokenVerifier } from '../access/registered-route.js';
import { auditContext, type AuditLog } from '../audit/audit-log.js';

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

/** The project a request touches, from where its route says it comes. The key explainer calls it too. */
export async function resolveProject(
  source: ProjectSource,
  req: Pick<FastifyRequest, 'params' | 'query' | 'body'>,
  dir: AccessDirectory,
): Promise<ProjectFact> {
  const params = req.params as Record<string, unknown>;
  const query = (req.query ?? {}) as Record<string, unknown>;
  switch (source.from) {
    case 'path-project': {
      const exid = str(params.exid);
      return exid ? dir.projectByExid(exid) : { found: false };
    }
    case 'path-camera': {
      const exid = str(params.camera_exid);
      return exid ? dir.projectOfCamera(exid) : { found: false };
    }
    case 'query-camera': {
      const exid = str(query.camera_exid);
      return exid ? dir.projectOfCamera(exid) : { found: false };
    }
    case 'body-project': {
      const exid = str((req.body as Record<string, unknown> | undefined)?.project_exid);
      return exid ? dir.projectByExid(exid) : { found: false };
    }
    case 'record': {
      const ref = await source.resolve(req as FastifyRequest);
      return ref ? { found: true, ...ref } : { found: false };
    }
    case 'list':
      return { found: false };
  }
}

async function enforce(req: FastifyRequest, decision: Decision, audit?: AccessDeps['audit']): Promise<void> {
  if (decision.outcome !== 'refuse') return;
  const p = req.principal;
  if (p.kind === 'key' && audit) {
    // Sampled: most refusals write nothing; the audit log never fails the answer.
    await audit.keyRefused(auditContext(req), p.keyId, decision.code, { method: req.method, url: req.routeOptions.url ?? req.url });
  }
  req.log.info(
    {
      access: {
        code: decision.code,
        principal: p.kind,
        key_id: p.kind === 'key' ? p.keyId : undefined,
        user_id: p.kind === 'anonymous' ? undefined : p.userId,
        required: decision.required,
        held: decision.held,
      },
    },
    'access refused',
  );
  throw new ApiError(decision.code, decision.message, { headers: decision.headers });
}

async function decideWithProject(req: FastifyRequest, policy: AccessPolicy, deps: AccessDeps): Promise<void> {
  const source = (policy as { project?: ProjectSource }).project!;
  const project = await resolveProject(source, req, deps.directory);
  const principal = req.principal;
  const role = project.found && principal.kind !== 'anonymous' ? await deps.directory.roleOf(principal.userId, project.id) : null;
  const decision = decide({ principal, policy, project, role });
  await enforce(req, decision, deps.audit);
  if (project.found) req.project = { id: project.id, exid: project.exid };
  req.role = role;
}

export function accessLayer(deps: AccessDeps, registry: RegisteredRoute[]) {
  return fp(async function accessPlugin(app: FastifyInstance) {
    app.decorateRequest('principal', null as never);
    app.decorateRequest('project', null);
    app.decorateRequest('role', null);
    app.decorateRequest('accessPendingBody', false);
    app.decorateRequest('tokenGrant', null);

    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) registry.push({ method, url: route.url, options: route });
      const policy = route.config?.access;
      if (policy?.access === 'scoped') {
        for (const s of policy.scopes) if (!isScope(s)) throw new Error(`route ${route.url} names unknown scope ${s}`);
      }
    });

    // Fail closed: a route without a declared policy stops the app from starting.
    app.addHook('onReady', async () => {
      const missing = registry.filter((r) => !policyOf(r));
      if (missing.length > 0) {
        throw new Error(`routes without an access policy: ${missing.map((r) => `${r.method} ${r.url}`).join(', ')}`);
      }
    });

    app.addHook('onRequest', async (req) => {
      const policy = req.routeOptions.config?.access;
      req.principal = ANONYMOUS;
      if (!policy || policy.access === 'public') return;
      if (policy.access === 'token') {
        // The route's own token first; a key sent here is still identified, so a valid one learns
        // that the endpoint is closed to keys (403) and a bad one gets 401, as everywhere else.
        const verify = deps.tokenVerifiers[policy.token];
        req.tokenGrant = verify ? await verify(req) : null;
        if (!req.tokenGrant && req.headers['x-access-key'] !== undefined) req.principal = await authenticate(req, deps.keys, deps.sessions);
        return enforce(req, decide({ principal: req.principal, policy, token: req.tokenGrant }), deps.audit);
      }
      try {
        req.principal = await authenticate(req, deps.keys, deps.sessions);
      } catch (err) {
        // Where anonymous callers are welcome (sign-in), a stale or wrong credential is ignored.
        if (!(policy.access === 'people' && policy.anonymous)) throw err;
      }
      const decision = decide({ principal: req.principal, policy });
      if (decision.outcome !== 'need-project') return enforce(req, decision, deps.audit);
      if ((policy as { project?: ProjectSource }).project?.from === 'body-project') {
        req.accessPendingBody = true;
        return;
      }
      await decideWithProject(req, policy, deps);
    });

    app.addHook('preValidation', async (req) => {
      if (!req.accessPendingBody) return;
      const policy = req.routeOptions.config.access!;
      const exid = str((req.body as Record<string, unknown> | undefined)?.project_exid);
      // A person's body without a project is left to validation (400); a key must name one it may touch.
      if (!exid && req.principal.kind === 'user') return;
      await decideWithProject(req, policy, deps);
    });
  });
}
