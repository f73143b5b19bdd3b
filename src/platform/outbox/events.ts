// What the outbox carries and what a channel is (docs/notifications.md lists every event kind).

export const EVENT_TYPES = [
  'comment.created',
  'member.added',
  'member.removed',
  'invitation.created',
  'camera.status_changed',
  'camera.picture_fault',
  'anpr.plate_read',
  'anpr.watchlist_match',
  'media_item.ready',
  'media_item.failed',
  'key.revoked_by_leak',
  'progress_photo.due',
  'webhook.disabled',
] as const;
/** The kinds published to webhooks and MQTT, and documented. */
export type PublicEventType = (typeof EVENT_TYPES)[number];
/** Kinds only the platform's own e-mail channel acts on (docs/email.md), never published: a password-reset request names an address that may have no account. */
const INTERNAL_EVENT_TYPES = ['password_reset.requested'] as const;
export type EventType = PublicEventType | (typeof INTERNAL_EVENT_TYPES)[number];

/** Whether an event kind is published (webhooks, MQTT) rather than for e-mail only. */
export const isPublicEvent = (type: EventType): type is PublicEventType => (EVENT_TYPES as readonly string[]).includes(type);

/** An event as a change records it. */
export interface NewEvent {
  type: EventType;
  /** The project it is about; null for none (a key revoked outside any project). */
  projectExid: string | null;
  cameraExid?: string | null;
  data: Record<string, unknown>;
}

/** An event as the outbox stored it. */
export interface StoredEvent extends NewEvent {
  id: string;
  /** ISO-8601 UTC. */
  createdAt: string;
}

/** A way out (webhooks, MQTT, e-mail), plugged into the outbox by the feature that owns it. */
export interface Channel {
  /** `webhook`, `mqtt`, `email`: stored with each delivery, so it must not change. */
  name: string;
  /** One delivery per target (a webhook id, `broker`, a person id); [] for none. Called once per event when it is fanned out. */
  targets(event: StoredEvent): Promise<string[]>;
  /** Delivers once; throws to be retried with back-off (throw `GiveUp` for a delivery that can never succeed). */
  deliver(event: StoredEvent, target: string): Promise<void>;
  /** Removes the channel's own log of attempts made before `before` (ISO time), when it keeps one. */
  prune?(before: string): Promise<void>;
}

/** Thrown by `Channel.deliver` when retrying is pointless (the target is gone or disabled): the delivery ends as failed. */
export class GiveUp extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GiveUp';
  }
}

/** The JSON body every channel sends: the webhook payload, the MQTT message. */
export function eventBody(event: StoredEvent): { id: string; type: EventType; created_at: string; project_exid: string | null; data: Record<string, unknown> } {
  const data = event.cameraExid && !('camera_exid' in event.data) ? { camera_exid: event.cameraExid, ...event.data } : event.data;
  return { id: event.id, type: event.type, created_at: event.createdAt, project_exid: event.projectExid, data };
}
