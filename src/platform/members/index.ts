// What other features use of members: reads of memberships and owners.
// Other features import this file only (docs/architecture.md, Feature folders as modules).
export {
  adminsOf,
  insertMember,
  memberCountsOf,
  memberOf,
  membersAmong,
  membersOf,
  membershipsOf,
  moveOwnership,
  ownerOf,
  ownersOf,
  projectIdsOwnedBy,
  projectsOfMemberAmong,
} from './members-repository.js';
export type { InvitationsService } from './invitations-service.js';
