// The audit log: one service every security-relevant change goes through (sign-ins, sessions, keys,
// members, admin actions, impersonation). Who, what, when, from where; never a secret: details are
// scrubbed of anything named like a credential or shaped like a JWT or key value before they are written.
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { PlatformDb } from '../database.js';
import type { AuditEventsTable, AuditOutcome } from './audit-tables.js';
import { looksLikeJwt } from '../../lib/auth/jwt.js';
import { API_KEY_PREFIX } from '../../lib/auth/api-key-format.js';
import { pageMeta } from '../../lib/http/pagination.js';
import { newId } from '../../lib/ids.js';
import { insertAuditEvent, searchAuditEvents, type AuditQuery } from './audit-repository.js';

/** Who did it and from where: taken from the request by `auditContext`. */
export interface AuditContext {
  actorUserId: string | null;
  actorKeyId: string | null;
  impersonatorId: string | null;
  ip: string | null;
  userAgent: string | null;
}

export const SYSTEM_CONTEXT: AuditContext = { actorUserId: null, actorKeyId: null, impersonatorId: null, ip: null, userAgent: null };

export function auditContext(req: FastifyRequest): AuditContext {
  const p = req.principal;
  const ua = req.headers['user-agent'];
  return {
    actorUserId: p && p.kind !== 'anonymous' ? p.userId : null,
    actorKeyId: p?.kind === 'key' ? p.keyId : null,
    impersonatorId: p?.kind === 'user' ? (p.impersonatorId ?? null) : null,
    ip: req.ip ?? null,
    userAgent: typeof ua === 'string' ? ua.slice(0, 512) : null,
  };
}

export interface AuditEvent {
  action: string;
  outcome?: AuditOutcome;
  /** Whose account it concerns; defaults to the actor. */
  subjectUserId?: string | null;
  target?: { type: string; id: string };
  details?: Record<string, unknown>;
}

export type { AuditQuery } from './audit-repository.js';

const SECRET_NAME = /pass(word)?|secret|token|authorization|cookie|^key$|_key$|credential|verifier|nonce|^code$/i;

/** Drops fields named like credentials and values shaped like JWTs or key values, at any depth. */
export function scrub(value: unknown, depth = 0): unknown {
  if (depth > 4) return '[truncated]';
  if (typeof value === 'string') {
    if (looksLikeJwt(value) || value.includes(API_KEY_PREFIX)) return '[redacted]';
    return value.length > 500 ? `${value.slice(0, 500)}…` : value;
  }
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => scrub(v, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = SECRET_NAME.test(k) ? '[redacted]' : scrub(v, depth + 1);
    return out;
  }
  return value;
}

/** An audit event as the API answers it: the row, with its details parsed. */
export type AuditRecord = Omit<AuditEventsTable, 'details'> & { details: Record<string, unknown> };

const toRecord = (r: AuditEventsTable): AuditRecord => ({ ...r, details: JSON.parse(r.details) as Record<string, unknown> });

/** Key refusals are sampled: per key and refusal code, one event per window, with the count of the rest. */
export class RefusalSampler {
  private readonly windows = new Map<string, { start: number; suppressed: number }>();
  constructor(
    private readonly windowMs = 60_000,
    private readonly limit = 10_000,
  ) {}

  /** Whether to write this refusal now, and how many were left out since the last one written. */
  take(key: string, now = Date.now()): { write: boolean; suppressed: number } {
    const w = this.windows.get(key);
    if (w && now - w.start < this.windowMs) {
      w.suppressed++;
      return { write: false, suppressed: 0 };
    }
    if (this.windows.size >= this.limit) this.windows.clear();
    this.windows.set(key, { start: now, suppressed: 0 });
    return { write: true, suppressed: w?.suppressed ?? 0 };
  }
}

export class AuditLog {
  private readonly refusals = new RefusalSampler();

  constructor(
    private readonly db: PlatformDb,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Writes one event. Failing to audit never fails the action it describes; it is logged instead. */
  async record(ctx: AuditContext, event: AuditEvent): Promise<void> {
    const row: AuditEventsTable = {
      id: newId(),
      created_at: new Date().toISOString(),
      action: event.action,
      outcome: event.outcome ?? 'success',
      actor_user_id: ctx.actorUserId,
      actor_key_id: ctx.actorKeyId,
      impersonator_id: ctx.impersonatorId,
      subject_user_id: event.subjectUserId === undefined ? ctx.actorUserId : event.subjectUserId,
      target_type: event.target?.type ?? null,
      target_id: event.target?.id ?? null,
      ip: ctx.ip,
      user_agent: ctx.userAgent,
      details: JSON.stringify(scrub(event.details ?? {})),
    };
    try {
      await insertAuditEvent(this.db, row);
    } catch (err) {
      this.log.error({ err, audit_action: row.action }, 'writing an audit event failed');
    }
  }

  /** A request refused to an API key by the access layer: sampled so a flood cannot fill the disk. */
  keyRefused(ctx: AuditContext, keyId: string, code: string, route: { method: string; url: string }): Promise<void> | void {
    const { write, suppressed } = this.refusals.take(`${keyId}|${code}`);
    if (!write) return;
    return this.record(ctx, {
      action: 'api_key.refused',
      outcome: 'refused',
      target: { type: 'api_key', id: keyId },
      details: { reason: code, method: route.method, route: route.url, suppressed_since_last: suppressed },
    });
  }

  async list(q: AuditQuery): Promise<{ meta: ReturnType<typeof pageMeta>; data: AuditRecord[] }> {
    const { total, rows } = await searchAuditEvents(this.db, q);
    return { meta: pageMeta(q.page, q.pageSize, total), data: rows.map(toRecord) };
  }
}
