// The body every channel sends, with the `data` of each event kind, as JSON schemas: published in the
// OpenAPI document's `webhooks` section (one entry per kind) and explained in docs/notifications.md.
import { type TSchema, Type } from 'typebox';
import { EVENT_TYPES, type PublicEventType } from './events.js';

const S = Type.String;
const N = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const Camera = { camera_exid: S() };
const Plate = {
  ...Camera,
  event_id: S({ description: 'The ANPR event' }),
  plate: S({ description: 'Normalised: capitals and digits' }),
  captured_at: S({ format: 'date-time' }),
  direction: S(),
  confidence: N(Type.Number()),
  has_plate_image: Type.Boolean(),
};
const Render = { media_item_id: S(), kind: S({ description: 'clip, timelapse or compare' }), title: S(), camera_exid: N(S()) };

const DATA: Record<PublicEventType, { when: string; data: Record<string, TSchema> }> = {
  'comment.created': {
    when: 'A comment was added to a camera’s recording',
    data: { comment_id: S(), ...Camera, timestamp: S({ format: 'date-time', description: 'The recorded moment it is about' }), content: S(), author_id: S() },
  },
  'member.added': {
    when: 'A person became a member of the project (added, or accepted an invitation: `via` is `invitation`)',
    data: { user_id: S(), email: S(), role: S(), via: Type.Optional(S()), added_by: Type.Optional(S({ description: 'Who added them, when added directly' })) },
  },
  'member.removed': {
    when: 'A member was removed from the project, or left it (`via` is `left`)',
    data: { user_id: S(), email: S(), role: S(), via: Type.Optional(S()) },
  },
  'invitation.created': {
    when: 'An e-mail without an account was invited to the project',
    data: { email: S(), role: S(), invited_by: N(S()), expires_at: S({ format: 'date-time' }) },
  },
  'camera.status_changed': {
    when: 'A camera’s health check found another status than the stored one',
    data: { ...Camera, status: S({ description: 'online or offline' }), previous_status: S(), reason: N(S()), checked_at: S({ format: 'date-time' }) },
  },
  'camera.picture_fault': {
    when: 'A picture check of a camera’s stored frames started or stopped finding a fault (docs/analysis.md)',
    data: {
      ...Camera,
      check: S({ description: 'black, frozen, blurred or moved' }),
      state: S({ description: 'fault when it started, ok when it ended' }),
      since: S({ format: 'date-time', description: 'The time of the frame that began this state' }),
      picture_status: S({ description: 'The camera’s picture status after the change: fault while any check is in fault, else ok' }),
    },
  },
  'anpr.plate_read': { when: 'A camera or recorder pushed a number-plate read', data: Plate },
  'anpr.watchlist_match': { when: 'A plate read matched the project’s watch list', data: { ...Plate, watchlist_label: S() } },
  'media_item.ready': { when: 'A media-hub render (clip, timelapse, compare) finished', data: Render },
  'media_item.failed': { when: 'A media-hub render failed', data: { ...Render, error: S() } },
  'key.revoked_by_leak': {
    when: 'A leak report revoked an API key that reached the project (one event per project of the key)',
    data: { key_id: S(), key_name: S(), key_hint: S(), owner_id: S(), revoked_at: S({ format: 'date-time' }) },
  },
  'progress_photo.due': { when: 'A progress-photo delivery is due by its schedule', data: {} },
  'webhook.disabled': {
    when: 'A webhook of the project was disabled after repeated failed deliveries',
    data: { webhook_id: S(), url: S(), failures: Type.Integer(), disabled_at: S({ format: 'date-time' }) },
  },
};

/** The body of one event kind. */
function bodySchema(type: PublicEventType): TSchema {
  return Type.Object(
    {
      id: S({ description: 'The event’s id: the same on every retry and channel, to drop duplicates' }),
      type: Type.Literal(type),
      created_at: S({ format: 'date-time' }),
      project_exid: N(S()),
      data: Type.Object(DATA[type].data, { additionalProperties: true }),
    },
    { additionalProperties: false },
  );
}

/** The OpenAPI 3.1 `webhooks` section: one POST per event kind, its body and the signature header. */
export function openApiWebhooks(): Record<string, unknown> {
  return Object.fromEntries(
    EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `webhook_${type.replace('.', '_')}`,
          summary: DATA[type].when,
          description: 'Sent to each project webhook that chose this event type, and published on MQTT (docs/notifications.md).',
          tags: ['webhooks'],
          // The receiver authenticates Overlook by the signature header, not by a scheme of its own.
          security: [],
          parameters: [
            {
              name: 'Overlook-Signature',
              in: 'header',
              required: true,
              description: '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed by the webhook secret>`',
              schema: { type: 'string' },
            },
          ],
          requestBody: { required: true, content: { 'application/json': { schema: bodySchema(type) } } },
          responses: { '200': { description: 'Any 2xx answer counts as delivered; anything else is retried with back-off' } },
        },
      },
    ]),
  );
}
