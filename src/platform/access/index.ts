// The access vocabulary (policy, scopes, principal, the decision): a leaf every feature may import.
// Other features import this file only (docs/architecture.md, Feature folders as modules).
export { decide, tokenChallenge } from './decide.js';
export type { Decision, ProjectFact, ProjectRef, TokenGrant } from './decide.js';
export {
  ACCOUNT_CONTROLS,
  ROLES,
  adminOnly,
  fromBodyProject,
  fromPathCamera,
  fromPathProject,
  fromQueryCamera,
  fromRecord,
  isRole,
  listOfProjects,
  peopleOnly,
  publicRoute,
  roleAllows,
  scoped,
  scopesOf,
  tokenOnly,
} from './policy.js';
export type { AccessPolicy, ProjectSource, Role, TokenKind } from './policy.js';
export { ANONYMOUS } from './principal.js';
export type { Principal } from './principal.js';
export { policyOf } from './registered-route.js';
export type { RegisteredRoute, TokenVerifier } from './registered-route.js';
export { SCOPE_CATALOGUE, isScope } from './scopes.js';
export type { Scope } from './scopes.js';
