// Sign-ins: each login is a session row; its JWT names the session, so logging out or revoking the
// session refuses that JWT from the next request on. Verified tokens and live sessions are cached in
// memory; every revocation forgets the session at once (docs/architecture.md, Caches). last_seen_at is
// written behind in batches.
import type { FastifyBaseLogger } from 'fastify';
import type { Cache, CacheRegistry } from '../../lib/cache/index.js';
import type { PlatformDb } from '../database.js';
import { looksLikeJwt, type JwtSigner, type PlatformClaims } from '../../lib/auth/jwt.js';
import { groupByTime, WriteBehind } from '../../lib/write-behind.js';
import { toBool } from '../../lib/db/index.js';
import { newId } from '../../lib/ids.js';
import { accountStateOf } from '../users/index.js';
import * as repo from './sessions-repository.js';

export interface LiveSession {
  id: string;
  userId: string;
  isAdmin: boolean;
  expiresAt: number;
  /** The platform admin acting as the user, on an impersonated session. */
  impersonatorId?: string | null;
  /** An OAuth access token's grant rather than a sign-in session (see Principal.delegated). */
  delegated?: boolean;
}

export type SessionLookup = { ok: true; session: LiveSession } | { ok: false; reason: 'malformed' | 'invalid' | 'expired' | 'ended' };

/** How long a cached session may lag a change another process made (this one's own changes forget it at once). */
const SESSION_TTL_MS = 60_000;

export class SessionStore {
  /** Signature-checked claims by token; an entry leaves when its token expires, if not before. */
  private readonly verified: Cache<string, PlatformClaims>;
  /** Sessions by id; null when it has ended (revoked, unknown, the account disabled, or its impersonator no longer an admin). */
  private readonly sessions: Cache<string, LiveSession | null>;
  /** Whether each account is enabled, for credentials that name a person but no session (media tokens of API keys). */
  private readonly lastSeen: WriteBehind;
  constructor(
    private readonly db: PlatformDb,
    private readonly signer: JwtSigner,
    private readonly sessionDays: number,
    log: FastifyBaseLogger,
    private readonly caches: CacheRegistry,
    /**
     * Bearer tokens for people other than platform JWTs: OAuth access tokens whose audience is the main
     * API, checked (signature, audience, live grant) by the authorization server on every request.
     */
    private readonly otherTokens: ((token: string) => Promise<LiveSession | null>) | null = null,
    /** Whether a session id of such a token (its OAuth grant) is still live and the person's. */
    private readonly otherSessions: ((sessionId: string, userId: string) => Promise<boolean>) | null = null,
  ) {
    this.verified = caches.create('auth.verified-tokens', { max: 10_000, ttlMs: SESSION_TTL_MS });
    this.sessions = caches.create('auth.sessions', {
      max: 10_000,
      ttlMs: SESSION_TTL_MS,
      // An impersonation is tagged with its admin too: disabling them or taking their admin flag ends it.
      facts: (sid, s) =>
        s
          ? [{ kind: 'session', id: sid }, { kind: 'user', id: s.userId }, ...(s.impersonatorId ? [{ kind: 'user' as const, id: s.impersonatorId }] : [])]
          : [{ kind: 'session', id: sid }],
    });
    this.lastSeen = new WriteBehind(
      async (entries) => {
        for (const [at, ids] of groupByTime(entries)) {
          await repo.touchSessions(this.db, ids, at);
        }
      },
      5000,
      (err) => log.error({ err }, 'writing sessions.last_seen_at failed'),
    );
  }

  async create(
    userId: string,
    client: { ip?: string; userAgent?: string },
    opts: { impersonatorId?: string; lifetimeMs?: number } = {},
  ): Promise<{ token: string; sessionId: string; expiresAt: string }> {
    const id = newId();
    const now = new Date();
    const expires = new Date(now.getTime() + (opts.lifetimeMs ?? this.sessionDays * 86_400_000));
    await repo.insertSession(this.db, {
      id,
      user_id: userId,
      created_at: now.toISOString(),
      last_seen_at: now.toISOString(),
      expires_at: expires.toISOString(),
      revoked_at: null,
      ip: client.ip ?? null,
      user_agent: client.userAgent?.slice(0, 512) ?? null,
      impersonator_id: opts.impersonatorId ?? null,
    });
    const token = await this.signer.sign({ sub: userId, sid: id, ...(opts.impersonatorId ? { act: opts.impersonatorId } : {}) }, expires);
    return { token, sessionId: id, expiresAt: expires.toISOString() };
  }

  async lookup(token: string, now = Date.now()): Promise<SessionLookup> {
    const known = this.lookupCached(token, now);
    if (known) return known;
    if (!looksLikeJwt(token)) return { ok: false, reason: 'malformed' };
    let claims = this.verified.get(token);
    if (!claims) {
      try {
        claims = await this.signer.verify(token);
      } catch {
        // Not a platform JWT: perhaps an OAuth access token for the main API (the MCP server's calls).
        const other = this.otherTokens ? await this.otherTokens(token) : null;
        return other ? { ok: true, session: other } : { ok: false, reason: 'invalid' };
      }
      this.verified.set(token, claims, { ttlMs: claims.exp * 1000 - Date.now() });
    }
    // An expired token's session is not worth a database read.
    if (claims.exp * 1000 <= now) return { ok: false, reason: 'expired' };
    const sid = claims.sid;
    const session = await this.sessions.load(sid, () => this.load(sid));
    return this.verdict(claims, session, now);
  }

  /**
   * What `lookup` answers, when memory alone can tell (a token verified before whose session is in the
   * cache). Undefined: verify and load.
   */
  private lookupCached(token: string, now = Date.now()): SessionLookup | undefined {
    const claims = this.verified.get(token);
    if (!claims) return undefined;
    const session = this.sessions.get(claims.sid);
    return session === undefined ? undefined : this.verdict(claims, session, now);
  }

  private verdict(claims: PlatformClaims, session: LiveSession | null | undefined, now: number): SessionLookup {
    if (claims.exp * 1000 <= now) return { ok: false, reason: 'expired' };
    if (!session || session.userId !== claims.sub || (claims.act ?? null) !== (session.impersonatorId ?? null)) return { ok: false, reason: 'ended' };
    if (session.expiresAt <= now) return { ok: false, reason: 'expired' };
    this.lastSeen.mark(session.id, now);
    return { ok: true, session };
  }

  private async load(sessionId: string): Promise<LiveSession | null> {
    const row = await repo.sessionById(this.db, sessionId);
    if (!row || row.revoked_at) return null;
    const account = await accountStateOf(this.db, row.user_id);
    // A disabled account has no live session (enforced here, so every credential path agrees).
    if (!account || account.disabled_at) return null;
    if (row.impersonator_id) {
      // An impersonation lives only as long as its admin is an enabled platform admin.
      const admin = await accountStateOf(this.db, row.impersonator_id);
      if (!admin || admin.disabled_at || !toBool(admin.is_admin)) return null;
    }
    return {
      id: row.id,
      userId: row.user_id,
      isAdmin: toBool(account.is_admin),
      expiresAt: Date.parse(row.expires_at),
      impersonatorId: row.impersonator_id ?? null,
    };
  }

  /** Ends a session; returns false when it was not the user's or had already ended. */
  async revoke(sessionId: string, userId: string): Promise<boolean> {
    const ended = await repo.revokeSession(this.db, sessionId, userId, new Date().toISOString());
    await this.caches.forget([{ kind: 'session', id: sessionId }]);
    return ended > 0;
  }

  /** Ends every live session of a user (admin reset, disabled account); returns how many ended. */
  async revokeAllOf(userId: string): Promise<number> {
    const ended = await repo.revokeSessionsOf(this.db, userId, new Date().toISOString());
    await this.caches.forget([{ kind: 'user', id: userId }]);
    return ended;
  }

  /** Ends every live impersonation the admin opened; returns how many ended. */
  async revokeOpenedBy(adminId: string): Promise<number> {
    const ended = await repo.revokeImpersonationsBy(this.db, adminId, new Date().toISOString());
    // Impersonations are cached under their admin too (see the facts above).
    await this.caches.forget([{ kind: 'user', id: adminId }]);
    return ended;
  }

  /**
   * Whether a session (or, for `oauth:<grant>` ids, an OAuth grant) is still the person's and live: what
   * a credential issued through it (a media token) depends on.
   */
  async isLive(sessionId: string, userId: string, now = Date.now()): Promise<boolean> {
    const session = await this.sessions.load(sessionId, () => this.load(sessionId));
    if (session) return session.userId === userId && session.expiresAt > now;
    return this.otherSessions ? this.otherSessions(sessionId, userId) : false;
  }

  /** Ends one session whoever it belongs to (an admin ending an impersonation). */
  async revokeById(sessionId: string): Promise<boolean> {
    const ended = await repo.revokeSessionById(this.db, sessionId, new Date().toISOString());
    await this.caches.forget([{ kind: 'session', id: sessionId }]);
    return ended > 0;
  }

  flush(): Promise<void> {
    return this.lastSeen.flush();
  }
}
