// The outbox's `mqtt` channel (docs/notifications.md, MQTT): every event is published at QoS 1 on
// `overlook/<project exid>/<camera exid or "project">/<type>` (an event of no project under `platform`),
// with the webhook's JSON body. One client per node, which mqtt.js reconnects by itself; while it is
// away a delivery fails and the outbox retries it with back-off.
import mqtt, { type MqttClient } from 'mqtt';
import type { FastifyBaseLogger } from 'fastify';
import { type Channel, eventBody, isPublicEvent, type StoredEvent } from '../outbox/index.js';

/** A topic level from a name: MQTT's separators and wildcards never come through. */
const level = (s: string) => s.replace(/[/+#]/g, '_');

function topicOf(event: StoredEvent): string {
  const project = event.projectExid ? level(event.projectExid) : 'platform';
  return `overlook/${project}/${event.cameraExid ? level(event.cameraExid) : 'project'}/${event.type}`;
}

export class MqttChannel implements Channel {
  readonly name = 'mqtt';
  private client: MqttClient | null = null;

  constructor(
    private readonly url: string,
    private readonly timeoutMs: number,
    private readonly log?: FastifyBaseLogger,
  ) {}

  /** Connects in the background; mqtt.js keeps reconnecting. */
  start(): void {
    if (this.client) return;
    const client = mqtt.connect(this.url, {
      reconnectPeriod: 1000,
      connectTimeout: this.timeoutMs,
      clientId: `overlook-${Math.random().toString(16).slice(2, 10)}`,
    });
    let warned = false;
    client.on('connect', () => {
      warned = false;
      this.log?.info('mqtt: connected to the broker');
    });
    client.on('error', (err) => {
      if (!warned) this.log?.warn({ err: err.message }, 'mqtt: broker error; reconnecting');
      warned = true;
    });
    this.client = client;
  }

  async stop(): Promise<void> {
    const c = this.client;
    this.client = null;
    await c?.endAsync(true).catch(() => {});
  }

  async targets(event: StoredEvent): Promise<string[]> {
    // E-mail-only kinds (a password-reset request) are never published.
    return isPublicEvent(event.type) ? ['broker'] : [];
  }

  async deliver(event: StoredEvent): Promise<void> {
    const c = this.client;
    if (!c?.connected) throw new Error('not connected to the MQTT broker');
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('the MQTT broker did not acknowledge in time')), this.timeoutMs);
    });
    try {
      await Promise.race([c.publishAsync(topicOf(event), JSON.stringify(eventBody(event)), { qos: 1 }), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
