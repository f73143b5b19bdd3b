// What the command line uses of backups: make one, restore one, and the refusal of a bad input.
// Other features import this file only (docs/architecture.md, Feature folders as modules).
export { createBackup } from './create-backup.js';
export { BackupRefused } from './refusal.js';
export { restoreBackup } from './restore-backup.js';
