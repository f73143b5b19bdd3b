// What other features use of notifications: the service and the notification types.
// Other features import this file only (docs/architecture.md, Feature folders as modules).
export { NotificationsService } from './notifications-service.js';
export type { NotificationType } from './notifications-tables.js';
