// A password-reset request is e-mail only: MQTT publishes it nowhere, webhooks cannot subscribe to it,
// and the OpenAPI document's event kinds do not list it.
import { describe, expect, it } from 'vitest';
import { MqttChannel } from '../../../src/platform/mqtt/mqtt-channel.js';
import { EVENT_TYPES, isPublicEvent, type StoredEvent } from '../../../src/platform/outbox/index.js';

const event = (type: StoredEvent['type']): StoredEvent => ({ id: 'e1', type, projectExid: null, data: {}, createdAt: new Date().toISOString() });

describe('events only e-mail sees', () => {
  it('are neither published nor offered to integrations', async () => {
    expect(isPublicEvent('password_reset.requested')).toBe(false);
    expect(EVENT_TYPES as readonly string[]).not.toContain('password_reset.requested');
    const mqtt = new MqttChannel('mqtt://127.0.0.1:1', 1000);
    expect(await mqtt.targets(event('password_reset.requested'))).toEqual([]);
    expect(await mqtt.targets(event('comment.created'))).toEqual(['broker']);
  });
});
