// The project role ladder as the screens use it: viewer < editor < admin < owner
// (docs/access-model.md, Roles); the ladder's words come from GET /v2/projects/{exid}/roles.
const RANK = { viewer: 1, editor: 2, admin: 3, owner: 4 };

export const rankOf = (role) => RANK[role] ?? 0;
export const roleAllows = (role, needed) => rankOf(role) >= rankOf(needed);

/** Everything `role` allows, from the ladder's `allows` texts of it and every role below it. */
export function allowsOf(ladder, role) {
  return (ladder ?? []).filter((r) => r.rank <= rankOf(role)).flatMap((r) => r.allows);
}
