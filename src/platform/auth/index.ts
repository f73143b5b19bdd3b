// What other features use of sign-in: sessions, the login throttle and the activities log.
// Other features import this file only (docs/architecture.md, Feature folders as modules).
export { logActivity } from './activities.js';
export type { ActivityAction } from './auth-tables.js';
export { identitiesOf } from './identities-repository.js';
export { failureCounter } from './login-throttle-repository.js';
export { LoginThrottle } from './login-throttle.js';
export { SessionStore } from './session-store.js';
export type { LiveSession } from './session-store.js';
export {
  activitiesOf,
  countLiveSessionsOf,
  liveImpersonations,
  liveSessionCounts,
  liveSessionsOf,
  openSessionIdsOf,
  sessionById,
} from './sessions-repository.js';
