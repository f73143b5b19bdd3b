// What a route declares about who may call it. Every route carries one in `config.access`;
// the scope map, the OpenAPI `x-scopes` and docs/access-model.md are all derived from these declarations.
import type { FastifyRequest } from 'fastify';
import type { Scope } from './scopes.js';

export const ROLES = ['viewer', 'editor', 'admin', 'owner'] as const;
export type Role = (typeof ROLES)[number];
const RANK: Record<Role, number> = { viewer: 1, editor: 2, admin: 3, owner: 4 };

export const isRole = (r: unknown): r is Role => typeof r === 'string' && r in RANK;
/** The role ladder: each role includes the ones before it. */
export const roleAllows = (held: Role | null | undefined, needed: Role): boolean => !!held && RANK[held] >= RANK[needed];

/**
 * Where the project a request touches comes from.
 * - `path-project`: the `{exid}` path parameter
 * - `path-camera`: the project of the `{camera_exid}` path parameter
 * - `query-camera`: the project of the `?camera_exid=` query parameter
 * - `body-project`: the body's `project_exid` (read after parsing, before validation)
 * - `record`: the project of the record the path addresses, found by `resolve`
 * - `list`: a list endpoint; it touches no single project and returns only the caller's
 */
export type ProjectSource =
  | { from: 'path-project' }
  | { from: 'path-camera' }
  | { from: 'query-camera' }
  | { from: 'body-project' }
  | { from: 'record'; resolve: (req: FastifyRequest) => Promise<{ id: string; exid: string } | null> }
  | { from: 'list' };

interface ProjectRule {
  /** Omitted: the route touches no project (user:info, profile:write). */
  project?: ProjectSource;
  /** The least role the acting person needs on that project; default viewer. */
  role?: Role;
  /**
   * A lesser role that is enough for a signed-in person when the path parameter `param` is their own
   * user id (a member leaving a project). Keys always need `role`.
   */
  self?: { param: string; role: Role };
}

/**
 * What an app's OAuth access token (delegated by a person) never reaches, in the words the consent page
 * shows (docs/oauth-mcp.md). People-only routes (keys, apps, administration) are closed to such tokens
 * unless they declare `delegated`; a route open to keys that controls the account declares `account`
 * with the entry it falls under, and the decision refuses delegated tokens there.
 */
export const ACCOUNT_CONTROLS = {
  keys: 'your API keys',
  apps: 'your developer apps and the apps you authorized',
  sessions: 'your sessions and sign-in history',
  profile: 'your password, e-mail or name',
  admin: 'platform administration',
} as const;
type AccountControl = keyof typeof ACCOUNT_CONTROLS;

interface DelegationRule {
  /** This route controls the person's account: closed to OAuth access tokens, whatever their scopes. */
  account?: AccountControl;
}

/** Conditions on the signed-in person, for people-only routes. */
interface PersonRule {
  /** Platform administrators only (`users.is_admin`), and not through an impersonated session. */
  admin?: boolean;
  /** Refused on impersonated sessions: what an admin acting as someone must not do (keys, password). */
  notImpersonated?: boolean;
  /** Also open to OAuth access tokens (delegated to an app); people-only routes are closed to them by default. */
  delegated?: boolean;
}

/**
 * Credentials of one purpose that stand in for people and keys on a few routes: `media` (a short-lived
 * signed token in `?token=` on HLS playlists and segments, for players that cannot send headers),
 * `ingestion` (a camera's or recorder's token for pushing events), both bound to one camera, `link`
 * (a linked site recorder's credential, `orl_…`, for its one connection) and `node` (a request one node
 * of the platform signed for another, relaying a linked camera's live view; docs/site-link.md).
 */
const TOKEN_KINDS = ['media', 'ingestion', 'link', 'node'] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];

export type AccessPolicy =
  /** No credential needed, none consulted (health, JWKS, OpenAPI, docs). */
  | { access: 'public' }
  /** Only a token of this kind, checked by its verifier; closed to API keys, and JWTs are not enough. */
  | { access: 'token'; token: TokenKind }
  /** People only: closed to API keys. `anonymous` lets callers without a credential in (login). */
  | ({ access: 'people'; anonymous?: boolean } & PersonRule & ProjectRule & DelegationRule)
  /** People, and API keys holding one of `scopes`. */
  | ({ access: 'scoped'; scopes: readonly Scope[] } & ProjectRule & DelegationRule);

/** The scopes that reach a route: what OpenAPI publishes as `x-scopes` (empty = closed to keys). */
export function scopesOf(policy: AccessPolicy): readonly Scope[] {
  return policy.access === 'scoped' ? policy.scopes : [];
}

// Shorthands used in route definitions.
export const publicRoute = (): AccessPolicy => ({ access: 'public' });
export const tokenOnly = (token: TokenKind): AccessPolicy => ({ access: 'token', token });
export const peopleOnly = (rule: ProjectRule & PersonRule & DelegationRule & { anonymous?: boolean } = {}): AccessPolicy => ({ access: 'people', ...rule });
/** Platform administration (`/v2/admin`): signed-in platform admins only, never keys or impersonated sessions. */
export const adminOnly = (): AccessPolicy => peopleOnly({ admin: true });
export const scoped = (scopes: readonly Scope[], rule: ProjectRule & DelegationRule = {}): AccessPolicy => ({ access: 'scoped', scopes, ...rule });
/** Whether OAuth access tokens are refused here: account control, or a people-only route not declaring `delegated`. */
export const closedToDelegated = (p: AccessPolicy): boolean =>
  (p.access === 'scoped' || p.access === 'people') && (!!p.account || (p.access === 'people' && !p.delegated && !p.anonymous));

export const fromPathProject: ProjectSource = { from: 'path-project' };
export const fromPathCamera: ProjectSource = { from: 'path-camera' };
export const fromQueryCamera: ProjectSource = { from: 'query-camera' };
export const fromBodyProject: ProjectSource = { from: 'body-project' };
export const listOfProjects: ProjectSource = { from: 'list' };
export const fromRecord = (resolve: (req: FastifyRequest) => Promise<{ id: string; exid: string } | null>): ProjectSource => ({ from: 'record', resolve });
