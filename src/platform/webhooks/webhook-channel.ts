// The outbox's `webhook` channel (docs/notifications.md, Webhooks): an event's targets are the enabled
// webhooks of its project that chose its type; a delivery POSTs the event's body, signed, through the
// outbound guard (the receiver's address is checked at every connection, redirects are not followed).
// Every attempt is logged. A 2xx answer resets the webhook's failures in a row; after
// `disableAfter` failures in a row it is disabled, with a `webhook.disabled` event recorded in the same
// transaction and an in-app notification to the project's owner.
import { request, type Dispatcher } from 'undici';
import type { PlatformDb } from '../database.js';
import { inTransaction } from '../../lib/db/transaction.js';
import { newId } from '../../lib/ids.js';
import { isOutboundRefused, REFUSED_BY_POLICY } from '../../lib/net/outbound-guard.js';
import type { FastifyBaseLogger } from 'fastify';
import { ownerOf } from '../members/index.js';
import type { NotificationsService } from '../notifications/index.js';
import { type Channel, eventBody, GiveUp, isPublicEvent, type NewEvent, type Outbox, type StoredEvent } from '../outbox/index.js';
import type { SecretStore } from '../secrets/index.js';
import { SIGNATURE_HEADER, signature } from './webhook-signature.js';
import * as repo from './webhooks-repository.js';
import type { WebhookRow } from './webhooks-tables.js';

export const SECRET_KIND = 'webhook-secret';

export interface WebhookChannelOptions {
  db: PlatformDb;
  outbox: Outbox;
  secrets: SecretStore;
  notifications: NotificationsService;
  /** The outbound guard's dispatcher. */
  dispatcher: Dispatcher;
  timeoutMs: number;
  disableAfter: number;
  log?: FastifyBaseLogger;
}

const failure = (err: unknown): string => {
  if (isOutboundRefused(err)) return REFUSED_BY_POLICY;
  const e = err as { code?: string; message?: string; name?: string };
  if (e?.name === 'TimeoutError' || e?.code === 'UND_ERR_HEADERS_TIMEOUT' || e?.code === 'UND_ERR_BODY_TIMEOUT') return 'timed out';
  return (e?.code ? `${e.code}: ${e.message}` : (e?.message ?? String(err))).slice(0, 300);
};

export class WebhookChannel implements Channel {
  readonly name = 'webhook';

  constructor(private readonly o: WebhookChannelOptions) {}

  async targets(event: StoredEvent): Promise<string[]> {
    if (!event.projectExid || !isPublicEvent(event.type)) return [];
    const hooks = await repo.enabledWebhooksOfExid(this.o.db, event.projectExid);
    return hooks.filter((h) => (JSON.parse(h.events) as string[]).includes(event.type)).map((h) => h.id);
  }

  /** The delivery log's attempts go with the outbox's finished events. */
  prune(before: string): Promise<void> {
    return repo.pruneAttempts(this.o.db, before);
  }

  async deliver(event: StoredEvent, target: string): Promise<void> {
    const hook = await repo.webhookById(this.o.db, target);
    if (!hook) throw new GiveUp('the webhook was deleted');
    if (!hook.enabled) throw new GiveUp('the webhook is disabled');
    const secret = this.o.secrets.openValue(SECRET_KIND, hook.id, hook.secret_sealed);
    const body = JSON.stringify(eventBody(event));
    const started = performance.now();
    let status: number | null = null;
    let error: string | null = null;
    try {
      const res = await request(hook.url, {
        method: 'POST',
        dispatcher: this.o.dispatcher,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Overlook-Webhooks/1',
          [SIGNATURE_HEADER]: signature(secret, Math.floor(Date.now() / 1000), body),
          'overlook-event-id': event.id,
          'overlook-event-type': event.type,
        },
        body,
        headersTimeout: this.o.timeoutMs,
        bodyTimeout: this.o.timeoutMs,
        signal: AbortSignal.timeout(this.o.timeoutMs),
      });
      status = res.statusCode;
      await res.body.dump({ limit: 64 * 1024 }).catch(() => {});
      if (status < 200 || status >= 300) error = `answered HTTP ${status}`;
    } catch (err) {
      error = failure(err);
    }
    const latency = Math.round(performance.now() - started);
    await repo.insertAttempt(this.o.db, {
      id: newId(),
      webhook_id: hook.id,
      event_id: event.id,
      event_type: event.type,
      attempted_at: new Date().toISOString(),
      status_code: status,
      error,
      latency_ms: latency,
      ok: error === null ? 1 : 0,
    });
    if (error === null) {
      if (hook.consecutive_failures !== 0) await repo.updateWebhook(this.o.db, hook.id, { consecutive_failures: 0 });
      return;
    }
    const failures = await repo.countFailure(this.o.db, hook.id);
    if (failures >= this.o.disableAfter) await this.disable(hook, failures);
    throw new Error(error);
  }

  /** Disables a webhook that failed too often, once, and tells its project's owner. */
  private async disable(hook: WebhookRow, failures: number): Promise<void> {
    const at = new Date().toISOString();
    const disabled = await inTransaction(this.o.db, async (tx) => {
      if (!(await repo.disableForFailures(tx, hook.id, at))) return false;
      const event: NewEvent = {
        type: 'webhook.disabled',
        projectExid: hook.project_exid,
        data: { webhook_id: hook.id, url: hook.url, failures, disabled_at: at },
      };
      await this.o.outbox.record(tx, event);
      return true;
    });
    if (!disabled) return;
    this.o.log?.warn({ webhook: hook.id, failures }, 'webhooks: disabled after repeated failures');
    const owner = await ownerOf(this.o.db, hook.project_id);
    if (owner)
      await this.o.notifications.notify(
        owner,
        'webhook_disabled',
        `A webhook of project ${hook.project_exid} was disabled after ${failures} failed deliveries in a row`,
        {
          project_exid: hook.project_exid,
          webhook_id: hook.id,
          url: hook.url,
        },
      );
  }
}
