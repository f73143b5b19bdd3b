// API-key management (docs/access-model.md): a person creates keys for their own projects and scopes; the
// value is shown once and only its hash is kept; expired and revoked keys cannot come back to life.
import type { PlatformDb } from '../database.js';
import { ApiError, validation } from '../../lib/errors.js';
import { generateApiKey, hashApiKey, keyHint } from '../../lib/auth/api-key-format.js';
import { isScope } from '../access/index.js';
import type { CacheRegistry } from '../../lib/cache/index.js';
import { statusOf, toApiKeyRecord, type ApiKeyRecord } from './api-key-record.js';
import * as repo from './api-keys-repository.js';
import type { ApiKeysTable } from './api-keys-tables.js';
import { newId } from '../../lib/ids.js';
import { SYSTEM_CONTEXT, type AuditContext, type AuditLog } from '../audit/index.js';
import { parseRfc3339 } from '../../lib/time/read-time.js';
import { checkAllowedIps, checkRateLimit, type RateLimit } from './key-limits.js';

export interface KeyInput {
  name?: string;
  expires_at?: string;
  projects?: string[];
  scopes?: string[];
  /** Null or omitted: no limit of the key's own. */
  rate_limit?: RateLimit | null;
  /** Null, empty or omitted: usable from anywhere. */
  allowed_ips?: string[] | null;
}

/** Keys live at most this long; a longer-lived credential should be a deliberate new key. */
const MAX_KEY_LIFETIME_DAYS = 3650;

export class ApiKeysService {
  constructor(
    private readonly db: PlatformDb,
    /** Every change to a key forgets it in the access layer's cache (docs/architecture.md, Caches). */
    private readonly caches: CacheRegistry,
    private readonly audit?: AuditLog,
  ) {}

  /**
   * A person left a project: their keys lose it too, so being added back later does not silently
   * revive old keys. Runs in the caller's transaction (`tx`), beside the membership's removal.
   */
  dropProjectFromKeysOf(tx: PlatformDb, userId: string, projectId: string) {
    return repo.dropProjectFromKeysOf(tx, userId, projectId);
  }

  /** Every change to a key is an audit event: its name and hint, never its value or hash. */
  private async audited(
    ctx: AuditContext | undefined,
    userId: string,
    action: string,
    key: { id: string; name: string },
    details: Record<string, unknown> = {},
  ) {
    await this.audit?.record(ctx ?? { ...SYSTEM_CONTEXT, actorUserId: userId }, {
      action: `api_key.${action}`,
      subjectUserId: userId,
      target: { type: 'api_key', id: key.id },
      details: { name: key.name, ...details },
    });
  }

  private checkExpiry(expiresAt: string, now: number): string {
    // Strict: Date.parse would take "1" as 2001 and roll 2026-02-30 over to March (docs/security.md, Times).
    const t = parseRfc3339(expiresAt)?.getTime();
    if (t === undefined) throw validation('expires_at', 'must be an RFC 3339 date-time, e.g. 2026-12-25T00:00:00Z');
    if (t <= now) throw validation('expires_at', 'must be in the future');
    if (t > now + MAX_KEY_LIFETIME_DAYS * 86_400_000) throw validation('expires_at', `must be within ${MAX_KEY_LIFETIME_DAYS} days`);
    return new Date(t).toISOString();
  }

  private checkScopes(scopes: string[]): string[] {
    const unknown = scopes.filter((s) => !isScope(s));
    if (unknown.length) throw validation('scopes', `unknown scope ${unknown.join(', ')}; see GET /v2/api-keys/scopes`);
    return [...new Set(scopes)];
  }

  private async checkProjects(userId: string, exids: string[]): Promise<string[]> {
    const wanted = [...new Set(exids)];
    const found = await repo.memberProjectIds(this.db, userId, wanted);
    const missing = wanted.filter((e) => !found.has(e));
    if (missing.length) throw validation('projects', `not a project of yours: ${missing.join(', ')}`);
    return wanted.map((e) => found.get(e)!);
  }

  private async record(row: Parameters<typeof toApiKeyRecord>[0]): Promise<ApiKeyRecord> {
    const exids = await repo.projectExidsOfKeys(this.db, [row.id]);
    return toApiKeyRecord(row, exids.get(row.id) ?? []);
  }

  private async mustFind(userId: string, id: string) {
    const row = await repo.findKeyRow(this.db, userId, id);
    if (!row) throw new ApiError('NOT_FOUND', 'API key not found');
    return row;
  }

  private static refuseDead(row: { revoked_at: string | null; expires_at: string }, action: string): void {
    const status = statusOf(row);
    if (status === 'revoked') throw new ApiError('API_KEY_REVOKED', `A revoked key cannot be ${action}; create a new key`);
    if (status === 'expired') throw new ApiError('API_KEY_EXPIRED', `An expired key cannot be ${action}; create a new key`);
  }

  /** The limit columns of a key row, from the body's `rate_limit` and `allowed_ips`. */
  private static limitColumns(input: Pick<KeyInput, 'rate_limit' | 'allowed_ips'>) {
    const out: { rate_limit_requests?: number | null; rate_limit_window_seconds?: number | null; allowed_ips?: string | null } = {};
    if (input.rate_limit !== undefined) {
      const limit = checkRateLimit(input.rate_limit);
      out.rate_limit_requests = limit?.requests ?? null;
      out.rate_limit_window_seconds = limit?.window_seconds ?? null;
    }
    if (input.allowed_ips !== undefined) {
      const ips = checkAllowedIps(input.allowed_ips);
      out.allowed_ips = ips ? JSON.stringify(ips) : null;
    }
    return out;
  }

  async create(
    userId: string,
    input: Required<Omit<KeyInput, 'rate_limit' | 'allowed_ips'>> & KeyInput,
    ctx?: AuditContext,
  ): Promise<ApiKeyRecord & { key: string }> {
    const now = Date.now();
    const expiresAt = this.checkExpiry(input.expires_at, now);
    const scopes = this.checkScopes(input.scopes);
    const limits = ApiKeysService.limitColumns(input);
    const projectIds = await this.checkProjects(userId, input.projects);
    const value = generateApiKey();
    const ts = new Date(now).toISOString();
    const row = {
      id: newId(),
      user_id: userId,
      name: input.name.trim(),
      key_hash: hashApiKey(value),
      key_hint: keyHint(value),
      scopes: JSON.stringify(scopes),
      expires_at: expiresAt,
      revoked_at: null,
      last_used_at: null,
      created_at: ts,
      updated_at: ts,
      rate_limit_requests: limits.rate_limit_requests ?? null,
      rate_limit_window_seconds: limits.rate_limit_window_seconds ?? null,
      allowed_ips: limits.allowed_ips ?? null,
    };
    if (!row.name) throw validation('name', 'must not be blank');
    await repo.insertKey(this.db, row, projectIds);
    await this.audited(ctx, userId, 'created', row, {
      scopes,
      projects: input.projects,
      expires_at: expiresAt,
      rate_limit: input.rate_limit ?? null,
      allowed_ips: row.allowed_ips ? JSON.parse(row.allowed_ips) : [],
    });
    return { ...(await this.record(row)), key: value };
  }

  async list(userId: string): Promise<ApiKeyRecord[]> {
    const rows = await repo.listKeyRows(this.db, userId);
    const exids = await repo.projectExidsOfKeys(
      this.db,
      rows.map((r) => r.id),
    );
    return rows.map((r) => toApiKeyRecord(r, exids.get(r.id) ?? []));
  }

  async get(userId: string, id: string): Promise<ApiKeyRecord> {
    return this.record(await this.mustFind(userId, id));
  }

  async edit(userId: string, id: string, input: KeyInput, ctx?: AuditContext): Promise<ApiKeyRecord> {
    const row = await this.mustFind(userId, id);
    ApiKeysService.refuseDead(row, 'edited');
    const set: Partial<ApiKeysTable> = { updated_at: new Date().toISOString(), ...ApiKeysService.limitColumns(input) };
    if (input.name !== undefined) {
      if (!input.name.trim()) throw validation('name', 'must not be blank');
      set.name = input.name.trim();
    }
    if (input.expires_at !== undefined) set.expires_at = this.checkExpiry(input.expires_at, Date.now());
    if (input.scopes !== undefined) set.scopes = JSON.stringify(this.checkScopes(input.scopes));
    const projectIds = input.projects !== undefined ? await this.checkProjects(userId, input.projects) : undefined;
    await repo.updateKey(this.db, id, set, projectIds);
    await this.caches.forget([{ kind: 'key', id }]);
    await this.audited(
      ctx,
      userId,
      'edited',
      { id, name: set.name ?? row.name },
      { changed: Object.keys(input).filter((k) => input[k as keyof KeyInput] !== undefined) },
    );
    return this.get(userId, id);
  }

  async regenerate(userId: string, id: string, ctx?: AuditContext): Promise<ApiKeyRecord & { key: string }> {
    const row = await this.mustFind(userId, id);
    ApiKeysService.refuseDead(row, 'regenerated');
    const value = generateApiKey();
    await repo.updateKey(this.db, id, { key_hash: hashApiKey(value), key_hint: keyHint(value), updated_at: new Date().toISOString() });
    await this.caches.forget([{ kind: 'key', id }]);
    await this.audited(ctx, userId, 'regenerated', row);
    return { ...(await this.get(userId, id)), key: value };
  }

  async revoke(userId: string, id: string, ctx?: AuditContext): Promise<ApiKeyRecord> {
    const row = await this.mustFind(userId, id);
    if (!row.revoked_at) {
      const now = new Date().toISOString();
      await repo.updateKey(this.db, id, { revoked_at: now, updated_at: now });
      await this.audited(ctx, userId, 'revoked', row);
    }
    await this.caches.forget([{ kind: 'key', id }]);
    return this.get(userId, id);
  }

  async remove(userId: string, id: string, ctx?: AuditContext): Promise<void> {
    const row = await this.mustFind(userId, id);
    await repo.deleteKeyRow(this.db, id);
    await this.caches.forget([{ kind: 'key', id }]);
    await this.audited(ctx, userId, 'deleted', row);
  }
}
