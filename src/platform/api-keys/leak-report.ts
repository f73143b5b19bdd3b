// The leak report (docs/security.md, Leaked keys): anyone who finds a key value where it should not be
// (a public repository, a paste, a log) posts it to POST /v2/api-keys/leaks, no credential needed. A value
// that names a live key revokes that key at once; its owner is notified and the event is audited. The
// answer is the same whatever the values were (valid, invalid, already revoked), and so is the work done
// before it: every value is hashed, and one UPDATE … WHERE key_hash IN (…) runs for every report. The
// owner's notification and the audit events are written after the answer. Reports are throttled per
// address in the counter store key limits use (every node counts the same).
import type { FastifyBaseLogger } from 'fastify';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { countAttempt } from '../../lib/auth/counted-attempt.js';
import { hashApiKey } from '../../lib/auth/api-key-format.js';
import type { CacheRegistry } from '../../lib/cache/index.js';
import type { PlatformDb } from '../database.js';
import type { AuditContext, AuditLog } from '../audit/index.js';
import type { NotificationsService } from '../notifications/index.js';
import { projectExidsOfKeys, revokeKeysByHashes } from './api-keys-repository.js';
import { inTransaction } from '../../lib/db/transaction.js';
import type { Outbox } from '../outbox/index.js';
import { rateLimitHeaders } from './key-guard.js';
import { requestCounter } from './key-rate-counts-repository.js';
import { throttleKey } from '../../lib/net/networks.js';

/** The most values one report may carry, and the longest value (a key is 53 characters; some slack for what scanners grab). */
export const LEAK_REPORT_MAX_KEYS = 100;
export const LEAK_REPORT_MAX_VALUE_LENGTH = 200;
/** Reports per address per window. */
const REPORTS = { requests: 20, window_seconds: 600 };

export class LeakReports {
  private readonly perAddress: RateLimiterAbstract;

  constructor(
    private readonly db: PlatformDb,
    private readonly caches: CacheRegistry,
    private readonly notifications: Pick<NotificationsService, 'notify'>,
    private readonly log: FastifyBaseLogger,
    /** `key.revoked_by_leak` is recorded with the revocation, once per project the key reached (docs/notifications.md). */
    private readonly outbox: Pick<Outbox, 'record'>,
    private readonly audit?: Pick<AuditLog, 'record'>,
  ) {
    this.perAddress = requestCounter(db, { keyPrefix: 'leak', points: REPORTS.requests, duration: REPORTS.window_seconds });
  }

  private throttle(ip: string): Promise<void> {
    return countAttempt(this.perAddress, throttleKey(ip), this.log, {
      unreachable: 'leak report: could not count the report',
      unavailable: 'Leak reports cannot be taken for a moment; try again shortly',
      tooMany: (wait) => `Too many reports from this address; try again in ${wait} s`,
      headers: (wait) => rateLimitHeaders(REPORTS, 0, wait, 'leak-report'),
    });
  }

  /** Takes a report; how many values it held. */
  async report(values: readonly string[], ctx: AuditContext): Promise<number> {
    await this.throttle(ctx.ip ?? 'unknown');
    // Every value is hashed, well-formed or not: no shortcut for garbage that would time differently.
    const hashes = values.map((v) => hashApiKey(v.trim()));
    const at = new Date().toISOString();
    const revoked = await inTransaction(this.db, async (tx) => {
      const keys = await revokeKeysByHashes(tx, hashes, at);
      const projects = await projectExidsOfKeys(
        tx,
        keys.map((k) => k.id),
      );
      for (const k of keys) {
        const data = { key_id: k.id, key_name: k.name, key_hint: k.key_hint, owner_id: k.user_id, revoked_at: at };
        const exids = projects.get(k.id) ?? [];
        for (const projectExid of exids.length > 0 ? exids : [null]) await this.outbox.record(tx, { type: 'key.revoked_by_leak', projectExid, data });
      }
      return keys;
    });
    if (revoked.length) await this.caches.forget(revoked.map((k) => ({ kind: 'key' as const, id: k.id })));
    // After the answer: the reporter must not learn from the time taken whether anything was revoked.
    setImmediate(() => void this.tell(revoked, at, ctx));
    return values.length;
  }

  private async tell(revoked: { id: string; user_id: string; name: string; key_hint: string }[], at: string, ctx: AuditContext): Promise<void> {
    for (const key of revoked) {
      try {
        await this.notifications.notify(
          key.user_id,
          'api_key_leaked',
          `Your API key "${key.name}" (${key.key_hint}…) was reported as leaked and has been revoked. Create a new key for the programs that used it.`,
          { api_key_id: key.id, revoked_at: at },
        );
        await this.audit?.record(ctx, {
          action: 'api_key.revoked_as_leaked',
          subjectUserId: key.user_id,
          target: { type: 'api_key', id: key.id },
          details: { name: key.name },
        });
      } catch (err) {
        this.log.error({ err, key_id: key.id }, 'leak report: could not notify the owner or audit the revocation');
      }
    }
  }
}
