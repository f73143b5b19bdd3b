// What other features use of users: account records, their creation and reads of the users table.
// Other features import this file only (docs/architecture.md, Feature folders as modules).
export { DEFAULT_FEATURES, checkPassword, createUser, isEmailAddress } from './create-user.js';
export { UserRecord, normaliseEmail, toUserRecord } from './user-record.js';
export { accountStateOf, emailsOf, findUserByEmail, findUserById, profilesOf, searchUsers, updateUser, userCounts, usersAmong } from './users-repository.js';
export type { UsersTable } from './users-tables.js';
