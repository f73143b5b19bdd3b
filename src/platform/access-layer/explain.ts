// The access explainer: what the access layer would decide for one of your keys on a given request,
// and why, step by step (in the order of docs/access-model.md). It gathers the same facts the request hook gathers and
// asks the very same `decide` function; the steps only put those facts into words.
import FindMyWay, { type HTTPVersion } from 'find-my-way';
import {
  decide,
  type Decision,
  type ProjectFact,
  policyOf,
  type RegisteredRoute,
  type AccessPolicy,
  type ProjectSource,
  type Role,
  type Principal,
  isScope,
  type Scope,
} from '../access/index.js';
import { resolveProject } from './hook.js';
import type { AccessDirectory } from '../directory/index.js';
import { type ApiKeyRecord, type ExplainRequest, type KeyGuard, addressAllowed, compileAllowList } from '../api-keys/index.js';

export interface ExplainStep {
  step: 'key' | 'limits' | 'endpoint' | 'scopes' | 'project' | 'role';
  outcome: 'pass' | 'fail' | 'not-needed';
  detail: string;
}

export interface Explanation {
  allowed: boolean;
  /** The answer the request would get from the access layer: 200-class when allowed. */
  status: number;
  code: string | null;
  message: string;
  endpoint: { method: string; path: string; access: string; scopes: string[] } | null;
  steps: ExplainStep[];
}

const STATUS: Record<string, number> = {
  UNAUTHORIZED: 401,
  NOT_FOUND: 404,
  ENDPOINT_CLOSED_TO_KEYS: 403,
  INSUFFICIENT_SCOPE: 403,
  PROJECT_NOT_ALLOWED: 403,
  PERMISSION_DENIED: 403,
  IP_NOT_ALLOWED: 403,
  TOO_MANY_REQUESTS: 429,
};
const SOURCE_WORDS: Record<ProjectSource['from'], string> = {
  'path-project': 'the {exid} in the path',
  'path-camera': 'the project of the {camera_exid} in the path',
  'query-camera': 'the project of the camera named by ?camera_exid=',
  'body-project': 'the body’s project_exid',
  record: 'the project of the record the path addresses',
  list: 'none: a list endpoint returns only records of the key’s projects',
};

interface RouteStore {
  route: RegisteredRoute;
}

export class AccessExplainer {
  private router: FindMyWay.Instance<HTTPVersion.V1> | null = null;

  constructor(
    private readonly routes: readonly RegisteredRoute[],
    private readonly directory: AccessDirectory,
    private readonly guard: Pick<KeyGuard, 'usage'>,
  ) {}

  /** The key's own limits, checked right after the key itself (key-guard.ts); a refusal, or null to go on. */
  private async limits(key: ApiKeyRecord, ip: string | undefined, steps: ExplainStep[]): Promise<Explanation | null> {
    const refuse = (code: 'IP_NOT_ALLOWED' | 'TOO_MANY_REQUESTS', message: string): Explanation => ({
      allowed: false,
      status: STATUS[code]!,
      code,
      message,
      endpoint: null,
      steps,
    });
    const words: string[] = [];
    if (key.allowed_ips.length) {
      const listed = `The key may be used only from ${key.allowed_ips.join(', ')}`;
      if (ip !== undefined && !addressAllowed(compileAllowList(key.allowed_ips), ip)) {
        steps.push({ step: 'limits', outcome: 'fail', detail: `${listed}; ${ip} is not among them` });
        return refuse('IP_NOT_ALLOWED', 'This API key may not be used from this address');
      }
      words.push(ip === undefined ? `${listed} (give "ip" to check an address)` : `${listed}; ${ip} is among them`);
    } else words.push('The key may be used from any address');
    if (key.rate_limit) {
      const { requests, window_seconds } = key.rate_limit;
      const { used, resetSeconds } = await this.guard.usage(key.id, key.rate_limit);
      const limit = `it allows ${requests} requests per ${window_seconds} s, ${Math.min(used, requests)} used in the current window`;
      if (used >= requests) {
        steps.push({ step: 'limits', outcome: 'fail', detail: `${words[0]}; ${limit}: the next request waits ${resetSeconds} s` });
        return refuse('TOO_MANY_REQUESTS', `This API key allows ${requests} requests per ${window_seconds} s; try again in ${resetSeconds} s`);
      }
      words.push(limit);
    } else words.push('it has no rate limit of its own');
    steps.push({ step: 'limits', outcome: 'pass', detail: words.join('; ') });
    return null;
  }

  /** The app's routes in a router of the same library and options Fastify routes with, built once. */
  private find(method: string, path: string) {
    if (!this.router) {
      const router = FindMyWay({ ignoreTrailingSlash: true, maxParamLength: 200 });
      for (const route of this.routes) {
        if (route.method === 'HEAD' || router.hasRoute(route.method as FindMyWay.HTTPMethod, route.url)) continue;
        router.on(route.method as FindMyWay.HTTPMethod, route.url, () => {}, { route } satisfies RouteStore);
      }
      this.router = router;
    }
    return this.router.find(method as FindMyWay.HTTPMethod, path);
  }

  async explain(key: ApiKeyRecord & { userId: string }, input: ExplainRequest): Promise<Explanation> {
    const steps: ExplainStep[] = [];
    const done = (decision: Decision, endpoint: Explanation['endpoint']): Explanation =>
      decision.outcome === 'refuse'
        ? { allowed: false, status: STATUS[decision.code] ?? 403, code: decision.code, message: decision.message, endpoint, steps }
        : { allowed: true, status: 200, code: null, message: decision.outcome === 'allow' ? decision.reason : 'allowed', endpoint, steps };

    // The key itself: an expired or revoked key is refused before anything else (401).
    if (key.status !== 'valid') {
      steps.push({ step: 'key', outcome: 'fail', detail: `The key is ${key.status}: every request with it gets 401` });
      return { allowed: false, status: 401, code: 'UNAUTHORIZED', message: `The key is ${key.status}`, endpoint: null, steps };
    }
    steps.push({ step: 'key', outcome: 'pass', detail: `The key is valid until ${key.expires_at}` });
    const limited = await this.limits(key, input.ip, steps);
    if (limited) return limited;

    const url = new URL(input.path, 'http://explain.invalid');
    const found = this.find(input.method.toUpperCase(), url.pathname);
    if (!found) {
      steps.push({ step: 'endpoint', outcome: 'fail', detail: `No endpoint answers ${input.method.toUpperCase()} ${url.pathname}` });
      return { allowed: false, status: 404, code: 'NOT_FOUND', message: 'No such endpoint', endpoint: null, steps };
    }
    const route = (found.store as RouteStore).route;
    const policy: AccessPolicy = policyOf(route) ?? { access: 'scoped', scopes: [] };
    const reaching = policy.access === 'scoped' ? [...policy.scopes] : [];
    const endpoint = { method: route.method, path: route.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}'), access: policy.access, scopes: reaching };

    const projectIds = new Set<string>();
    for (const exid of key.projects) {
      const fact = await this.directory.projectByExid(exid);
      if (fact.found) projectIds.add(fact.id);
    }
    const scopes = new Set(key.scopes.filter(isScope) as Scope[]);
    const principal: Principal = { kind: 'key', userId: key.userId, keyId: key.id, scopes, projectIds };

    let decision = decide({ principal, policy });
    if (policy.access !== 'scoped' || reaching.length === 0) {
      steps.push({
        step: 'endpoint',
        outcome: policy.access === 'public' ? 'pass' : 'fail',
        detail:
          policy.access === 'public'
            ? 'The endpoint is public: no credential is consulted'
            : 'The endpoint is closed to API keys (people only, or it declares no scopes)',
      });
      return done(decision, endpoint);
    }
    steps.push({ step: 'endpoint', outcome: 'pass', detail: `The endpoint is open to keys holding one of: ${reaching.join(', ')}` });
    const held = reaching.filter((s) => scopes.has(s));
    steps.push(
      held.length
        ? { step: 'scopes', outcome: 'pass', detail: `The key holds ${held.join(', ')}` }
        : { step: 'scopes', outcome: 'fail', detail: `The key holds none of ${reaching.join(', ')} (it holds ${[...scopes].join(', ') || 'no scopes'})` },
    );
    if (!held.length) return done(decision, endpoint);
    if (decision.outcome === 'refuse') {
      steps.push({ step: 'project', outcome: 'fail', detail: 'The key lists no projects, so it reaches nothing' });
      return done(decision, endpoint);
    }

    if (decision.outcome !== 'need-project') {
      steps.push({
        step: 'project',
        outcome: 'not-needed',
        detail: policy.project ? SOURCE_WORDS[policy.project.from] : 'The endpoint touches no project; it acts as the key’s owner',
      });
      steps.push({ step: 'role', outcome: 'not-needed', detail: 'No project role is needed' });
      return done(decision, endpoint);
    }

    const source = policy.project!;
    const request = { params: found.params, query: Object.fromEntries(url.searchParams), body: input.project_exid ? { project_exid: input.project_exid } : {} };
    const resolved: ProjectFact = await resolveProject(source, request, this.directory);
    const role: Role | null = resolved.found ? await this.directory.roleOf(key.userId, resolved.id) : null;
    // A project the key's owner is not a member of is explained exactly like a missing one: the
    // explainer must not tell anyone which project another tenant's camera or record belongs to.
    const project: ProjectFact = resolved.found && (role || projectIds.has(resolved.id)) ? resolved : { found: false };
    decision = decide({ principal, policy, project, role });
    const onList = project.found && projectIds.has(project.id);
    steps.push({
      step: 'project',
      outcome: onList ? 'pass' : 'fail',
      detail: !project.found
        ? `The project comes from ${SOURCE_WORDS[source.from]}, and none was found there`
        : `The project is ${project.exid} (from ${SOURCE_WORDS[source.from]}); it is ${onList ? '' : 'not '}on the key’s list`,
    });
    if (!onList) return done(decision, endpoint);
    const needed = policy.role ?? 'viewer';
    steps.push({
      step: 'role',
      outcome: decision.outcome === 'allow' ? 'pass' : 'fail',
      detail: `The action needs ${needed}; the key’s owner is ${role ?? 'not a member'} on ${project.exid}`,
    });
    return done(decision, endpoint);
  }
}
