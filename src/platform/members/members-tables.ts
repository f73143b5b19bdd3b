// The members feature's tables: who holds which role on a project, and the invitations waiting for
// people who have no account yet (docs/settings.md, Members).
import { nullable, oneOf, table, text, timestamp, type TableType, type TablesType } from '../../lib/db/table.js';
import { ROLES } from '../access/index.js';

const projectMembers = table({
  project_id: text(),
  user_id: text(),
  role: oneOf(ROLES),
  created_at: timestamp(),
});
export type ProjectMembersTable = TableType<typeof projectMembers>;

/** An invitation to a project for an e-mail with no account: one per project and e-mail. */
const projectInvitations = table({
  id: text(),
  project_id: text(),
  /** Normalised as accounts' e-mails are: the account that signs up with it sees the invitation. */
  email: text(),
  role: oneOf(['viewer', 'editor', 'admin'] as const),
  /** SHA-256 (hex) of the invitation's random token; the token itself is never stored. */
  token_hash: text(),
  invited_by: nullable(text()),
  created_at: timestamp(),
  expires_at: timestamp(),
});
export type ProjectInvitationsTable = TableType<typeof projectInvitations>;

export const membersTables = { project_members: projectMembers, project_invitations: projectInvitations };
export type MembersTables = TablesType<typeof membersTables>;
