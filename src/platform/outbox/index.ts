// What other features use of the outbox: the service (record an event in a transaction, plug a channel
// in), the event kinds and the channel interface.
// Other features import this file only (docs/architecture.md, Feature folders as modules).
export type { Outbox } from './outbox.js';
export { EVENT_TYPES, GiveUp, eventBody, isPublicEvent, type Channel, type EventType, type NewEvent, type StoredEvent } from './events.js';
export { openApiWebhooks } from './event-schemas.js';
