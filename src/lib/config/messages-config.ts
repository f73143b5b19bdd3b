// Messages out (docs/notifications.md): how the outbox's dispatcher retries, how webhooks are called and
// given up on, and the MQTT broker events are published on.
import type { PlatformEnvValues } from './env-schema.js';

export interface MessagesConfig {
  /** How often each node looks for due deliveries besides being woken, in milliseconds. */
  pollMs: number;
  /** First retry delay and the ceiling of the doubling delays, in milliseconds. */
  retryFirstMs: number;
  retryMaxMs: number;
  /** How long after an event its deliveries are still attempted, in milliseconds. */
  giveUpMs: number;
  /** How long finished events, their deliveries and webhook attempts are kept, in milliseconds. */
  keepMs: number;
  /** How long a webhook receiver has to answer, in milliseconds. */
  webhookTimeoutMs: number;
  /** Failed deliveries in a row that disable a webhook. */
  webhookDisableAfter: number;
  /** The MQTT broker's URL; unset: no MQTT. */
  mqttUrl?: string;
}

export function messagesConfig(env: PlatformEnvValues): MessagesConfig {
  if (env.OVERLOOK_MQTT_URL !== undefined) {
    let u: URL | undefined;
    try {
      u = new URL(env.OVERLOOK_MQTT_URL);
    } catch {}
    if (!u || !['mqtt:', 'mqtts:', 'ws:', 'wss:', 'tcp:', 'ssl:'].includes(u.protocol))
      throw new Error('OVERLOOK_MQTT_URL must be an mqtt://, mqtts://, ws:// or wss:// URL');
  }
  return {
    pollMs: env.OVERLOOK_OUTBOX_POLL_SECONDS * 1000,
    retryFirstMs: env.OVERLOOK_OUTBOX_RETRY_SECONDS * 1000,
    retryMaxMs: env.OVERLOOK_OUTBOX_RETRY_MAX_SECONDS * 1000,
    giveUpMs: env.OVERLOOK_OUTBOX_GIVE_UP_HOURS * 3_600_000,
    keepMs: env.OVERLOOK_OUTBOX_KEEP_DAYS * 86_400_000,
    webhookTimeoutMs: env.OVERLOOK_WEBHOOK_TIMEOUT_MS,
    webhookDisableAfter: Math.max(1, Math.floor(env.OVERLOOK_WEBHOOK_DISABLE_AFTER)),
    mqttUrl: env.OVERLOOK_MQTT_URL,
  };
}
