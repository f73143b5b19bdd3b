// A project's webhooks (docs/notifications.md, Webhooks): created with a URL and the event types to
// receive, answered once with their signing secret (kept sealed), listed, changed, deleted; their
// delivery log; redelivery of one event by hand. A URL the outbound guard refuses (the platform's own
// network, unless the operator opted it in) is refused when saved, and never called when it later
// resolves there.
import type { PlatformDb } from '../database.js';
import { ApiError, validation } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { isOutboundRefused, type OutboundGuard, REFUSED_BY_POLICY } from '../../lib/net/outbound-guard.js';
import type { ProjectRef } from '../access/index.js';
import type { EventType, Outbox } from '../outbox/index.js';
import type { SecretStore } from '../secrets/index.js';
import { SECRET_KIND } from './webhook-channel.js';
import { newSecret } from './webhook-signature.js';
import * as repo from './webhooks-repository.js';
import type { WebhookRow } from './webhooks-tables.js';

/** Webhooks one project may have. */
const MAX_WEBHOOKS_PER_PROJECT = 20;
/** Entries the delivery log shows. */
const LOG_SIZE = 50;

export interface Webhook {
  id: string;
  project_exid: string;
  url: string;
  events: EventType[];
  enabled: boolean;
  disabled_reason: string | null;
  consecutive_failures: number;
  created_at: string;
  updated_at: string;
}

const toWebhook = (r: WebhookRow): Webhook => ({
  id: r.id,
  project_exid: r.project_exid,
  url: r.url,
  events: JSON.parse(r.events) as EventType[],
  enabled: r.enabled === 1,
  disabled_reason: r.disabled_reason,
  consecutive_failures: r.consecutive_failures,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

export class WebhooksService {
  constructor(
    private readonly db: PlatformDb,
    private readonly secrets: SecretStore,
    private readonly guard: OutboundGuard,
    private readonly outbox: Outbox,
  ) {}

  /** An http(s) URL without credentials that the outbound guard does not refuse. */
  private async checkedUrl(text: string): Promise<string> {
    let u: URL;
    try {
      u = new URL(text);
    } catch {
      throw validation('url', 'must be an absolute http or https URL');
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw validation('url', 'must be an http or https URL');
    if (u.username || u.password) throw validation('url', 'must not carry credentials (deliveries are signed instead)');
    if (u.hash) throw validation('url', 'must not have a fragment');
    try {
      await this.guard.checkUrl(u);
    } catch (err) {
      if (isOutboundRefused(err)) throw validation('url', REFUSED_BY_POLICY);
      // A name that does not resolve yet is accepted: it is checked again at every delivery.
    }
    return u.toString();
  }

  async create(project: ProjectRef, userId: string, body: { url: string; events: EventType[] }): Promise<Webhook & { secret: string }> {
    const url = await this.checkedUrl(body.url);
    if ((await repo.countWebhooksOf(this.db, project.id)) >= MAX_WEBHOOKS_PER_PROJECT)
      throw new ApiError('CONFLICT', `A project has at most ${MAX_WEBHOOKS_PER_PROJECT} webhooks`);
    const id = newId();
    const secret = newSecret();
    const now = new Date().toISOString();
    const row: WebhookRow = {
      id,
      project_id: project.id,
      project_exid: project.exid,
      url,
      events: JSON.stringify([...new Set(body.events)]),
      secret_sealed: this.secrets.sealValue(SECRET_KIND, id, secret),
      enabled: 1,
      disabled_reason: null,
      consecutive_failures: 0,
      created_by: userId,
      created_at: now,
      updated_at: now,
    };
    await repo.insertWebhook(this.db, row);
    return { ...toWebhook(row), secret };
  }

  async list(project: ProjectRef): Promise<Webhook[]> {
    return (await repo.webhooksOf(this.db, project.id)).map(toWebhook);
  }

  private async row(project: ProjectRef, id: string): Promise<WebhookRow> {
    const row = await repo.webhookOf(this.db, project.id, id);
    if (!row) throw new ApiError('NOT_FOUND', 'Webhook not found');
    return row;
  }

  async get(project: ProjectRef, id: string): Promise<Webhook> {
    return toWebhook(await this.row(project, id));
  }

  /** Changes the URL or event types; `enabled: true` turns a disabled webhook back on with its failures forgotten. */
  async update(project: ProjectRef, id: string, body: { url?: string; events?: EventType[]; enabled?: boolean }): Promise<Webhook> {
    const row = await this.row(project, id);
    const change: Parameters<typeof repo.updateWebhook>[2] = { updated_at: new Date().toISOString() };
    if (body.url !== undefined) change.url = await this.checkedUrl(body.url);
    if (body.events !== undefined) change.events = JSON.stringify([...new Set(body.events)]);
    if (body.enabled === true && row.enabled !== 1) Object.assign(change, { enabled: 1, disabled_reason: null, consecutive_failures: 0 });
    if (body.enabled === false && row.enabled === 1) Object.assign(change, { enabled: 0, disabled_reason: null });
    await repo.updateWebhook(this.db, id, change);
    return this.get(project, id);
  }

  async remove(project: ProjectRef, id: string): Promise<void> {
    if ((await repo.deleteWebhook(this.db, project.id, id)) === 0) throw new ApiError('NOT_FOUND', 'Webhook not found');
  }

  /** The latest events sent to the webhook with their state, and the latest attempts with their answer and latency. */
  async log(project: ProjectRef, id: string) {
    await this.row(project, id);
    const [deliveries, attempts] = await Promise.all([this.outbox.deliveriesTo('webhook', id, LOG_SIZE), repo.attemptsOf(this.db, id, LOG_SIZE)]);
    return {
      deliveries: deliveries.map((d) => ({
        event_id: d.event_id,
        event_type: d.type,
        status: d.status,
        attempts: d.attempts,
        next_attempt_at: d.status === 'pending' ? d.next_attempt_at : null,
        last_error: d.last_error,
        delivered_at: d.delivered_at,
        created_at: d.created_at,
      })),
      attempts: attempts.map((a) => ({
        id: a.id,
        event_id: a.event_id,
        event_type: a.event_type,
        attempted_at: a.attempted_at,
        status_code: a.status_code,
        error: a.error,
        latency_ms: a.latency_ms,
        ok: a.ok === 1,
      })),
    };
  }

  /** Sends an event the webhook was sent before once more (it must be enabled). */
  async redeliver(project: ProjectRef, id: string, eventId: string): Promise<void> {
    const row = await this.row(project, id);
    if (!(await this.outbox.deliveryOf('webhook', id, eventId))) throw new ApiError('NOT_FOUND', 'This webhook was never sent that event');
    if (row.enabled !== 1) throw new ApiError('CONFLICT', 'The webhook is disabled: enable it first');
    await this.outbox.redeliver('webhook', id, eventId);
  }
}
