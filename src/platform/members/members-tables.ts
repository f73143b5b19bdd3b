// The members feature's table: who holds which role on a project.
import { oneOf, table, text, timestamp, type TableType, type TablesType } from '../../lib/db/table.js';
import { ROLES } from '../access/policy.js';

const projectMembers = table({
  project_id: text(),
  user_id: text(),
  role: oneOf(ROLES),
  created_at: timestamp(),
});
export type ProjectMembersTable = TableType<typeof projectMembers>;

export const membersTables = { project_members: projectMembers };
export type MembersTables = TablesType<typeof membersTables>;
