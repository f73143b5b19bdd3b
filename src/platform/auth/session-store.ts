// Sign-ins: each login is a session row; its JWT names the session, so logging out or revoking the
// session refuses that JWT from the next request on. Verified tokens and live sessions are cached in
// memory; every revocation clears the cache entry at once. last_seen_at is written behind in batches.
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../lib/db/index.js';
import { looksLikeJwt, type JwtSigner, type PlatformClaims } from '../../lib/auth/jwt.js';
import { groupByTime, WriteBehind } from '../../lib/write-behind.js';
import { toBool } from '../../lib/db/index.js';
import { newId } from '../../lib/ids.js';

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

const LIMIT = 10_000;

export class SessionStore {
  private readonly verified = new Map<string, PlatformClaims>();
  private readonly sessions = new Map<string, LiveSession | null>();
  private readonly lastSeen: WriteBehind;
  /**
   * Bearer tokens for people other than platform JWTs: OAuth access tokens whose audience is the main
   * API, checked (signature, audience, live grant) by the authorization server on every request.
   */
  otherTokens: ((token: string) => Promise<LiveSession | null>) | null = null;

  constructor(
    private readonly db: Db,
    private readonly signer: JwtSigner,
    private readonly sessionDays: number,
    log: FastifyBaseLogger,
  ) {
    this.lastSeen = new WriteBehind(
      async (entries) => {
        for (const [at, ids] of groupByTime(entries)) {
          await this.db.kysely.updateTable('sessions').set({ last_seen_at: at }).where('id', 'in', ids).execute();
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
    await this.db.kysely
      .insertInto('sessions')
      .values({
        id,
        user_id: userId,
        created_at: now.toISOString(),
        last_seen_at: now.toISOString(),
        expires_at: expires.toISOString(),
        revoked_at: null,
        ip: client.ip ?? null,
        user_agent: client.userAgent?.slice(0, 512) ?? null,
        impersonator_id: opts.impersonatorId ?? null,
      })
      .execute();
    const token = await this.signer.sign({ sub: userId, sid: id, ...(opts.impersonatorId ? { act: opts.impersonatorId } : {}) }, expires);
    return { token, sessionId: id, expiresAt: expires.toISOString() };
  }

  async lookup(token: string, now = Date.now()): Promise<SessionLookup> {
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
      if (this.verified.size >= LIMIT) this.verified.clear();
      this.verified.set(token, claims);
    }
    if (claims.exp * 1000 <= now) {
      this.verified.delete(token);
      return { ok: false, reason: 'expired' };
    }
    let session = this.sessions.get(claims.sid);
    if (session === undefined) {
      session = await this.load(claims.sid);
      if (this.sessions.size >= LIMIT) this.sessions.clear();
      this.sessions.set(claims.sid, session);
    }
    if (!session || session.userId !== claims.sub || (claims.act ?? null) !== (session.impersonatorId ?? null)) return { ok: false, reason: 'ended' };
    if (session.expiresAt <= now) return { ok: false, reason: 'expired' };
    this.lastSeen.mark(session.id, now);
    return { ok: true, session };
  }

  private async load(sessionId: string): Promise<LiveSession | null> {
    const row = await this.db.kysely
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select(['sessions.id', 'sessions.user_id', 'sessions.expires_at', 'sessions.revoked_at', 'sessions.impersonator_id', 'users.is_admin', 'users.disabled_at'])
      .where('sessions.id', '=', sessionId)
      .executeTakeFirst();
    // A disabled account has no live session (enforced here, so every credential path agrees).
    if (!row || row.revoked_at || row.disabled_at) return null;
    return {
      id: row.id,
      userId: row.user_id,
      isAdmin: toBool(row.is_admin),
      expiresAt: Date.parse(row.expires_at),
      impersonatorId: row.impersonator_id ?? null,
    };
  }

  /** Ends a session; returns false when it was not the user's or had already ended. */
  async revoke(sessionId: string, userId: string): Promise<boolean> {
    const res = await this.db.kysely
      .updateTable('sessions')
      .set({ revoked_at: new Date().toISOString() })
      .where('id', '=', sessionId)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    this.sessions.delete(sessionId);
    return Number(res.numUpdatedRows) > 0;
  }

  /** Ends every live session of a user (admin reset, disabled account); returns how many ended. */
  async revokeAllOf(userId: string): Promise<number> {
    const res = await this.db.kysely
      .updateTable('sessions')
      .set({ revoked_at: new Date().toISOString() })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    this.forgetUser(userId);
    return Number(res.numUpdatedRows);
  }

  /** Ends one session whoever it belongs to (an admin ending an impersonation). */
  async revokeById(sessionId: string): Promise<boolean> {
    const res = await this.db.kysely.updateTable('sessions').set({ revoked_at: new Date().toISOString() }).where('id', '=', sessionId).where('revoked_at', 'is', null).executeTakeFirst();
    this.sessions.delete(sessionId);
    return Number(res.numUpdatedRows) > 0;
  }

  /** Forget cached sessions of a user (after a change to the account, e.g. admin flag). */
  forgetUser(userId: string): void {
    for (const [sid, s] of this.sessions) if (s?.userId === userId) this.sessions.delete(sid);
  }

  flush(): Promise<void> {
    return this.lastSeen.flush();
  }
}
