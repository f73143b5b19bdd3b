// Media tokens: what lets a video player with no headers (ffplay, hls.js, Safari) fetch one camera's
// HLS playlist and segments. A token is a short-lived JWS signed with the platform key but with its own
// audience, so it is never accepted as a sign-in JWT and a JWT is never accepted as one. It names the
// camera (a token for camera A opens nothing of camera B), what it was issued through (`sub`: the
// sign-in session, OAuth grant or API key) and the viewer (`vid`, one per `/hls` call) so the stream can
// count who is watching. On every playlist and segment fetch the credential it was issued through must
// still be live and the person behind it (`uid`) must still see the camera's project, so ending a
// session, disabling an account or removing a member stops the token at once (docs/security.md).
// A token's signature is checked once: its claims are kept until it expires (`live-view.verified-media-tokens`,
// docs/architecture.md, Caches), as a sign-in JWT's are; what it was issued through is still asked every time.
import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Cache, CacheRegistry } from '../../lib/cache/index.js';
import type { JwtSigner } from '../../lib/auth/jwt.js';
import type { TokenVerifier, Principal } from '../access/index.js';

export const MEDIA_AUDIENCE = 'overlook-media';

/** How long the segment links written into each served playlist stay valid: a player fetches them within seconds. */
export const SEGMENT_TOKEN_SECONDS = 120;

export interface MediaClaims {
  cameraExid: string;
  /** What it was issued through: `session:<id>` (a sign-in session or an OAuth grant) or `key:<id>`. */
  subject: string;
  /** The person acting (the key's owner for keys): their access is checked again on every playlist fetch. */
  userId: string;
  viewerId: string;
}

export interface IssuedToken {
  token: string;
  expiresAt: Date;
}

/** What a token is issued through: the person's session (or OAuth grant), or the key (acting for its owner). */
export function subjectOf(p: Principal): string {
  if (p.kind === 'user') return `session:${p.sessionId}`;
  if (p.kind === 'key') return `key:${p.keyId}`;
  return 'anonymous';
}

/** What the verifier asks on every request: whether the credentials behind a token still hold. */
export interface MediaHolders {
  /** The sign-in session (or OAuth grant) is live and the person's: not ended, account enabled, impersonator still an admin. */
  sessionLive(sessionId: string, userId: string): Promise<boolean>;
  /** The API key is neither revoked, deleted nor expired, and its owner (`userId`) is enabled. */
  keyLive(keyId: string, userId: string): Promise<boolean>;
  /** The person is still a member of the camera's project. */
  seesCamera(userId: string, cameraExid: string): Promise<boolean>;
}

const tokenOf = (req: FastifyRequest): string | null => {
  const t = (req.query as Record<string, unknown> | undefined)?.token;
  return typeof t === 'string' && t.length > 0 && t.length < 4096 ? t : null;
};

/** The most a verified token's claims are kept (never past the token's own expiry). */
const VERIFIED_TTL_MS = 60_000;

export class MediaTokens {
  /** Signature-checked claims by token; invalid tokens are not kept (anyone can make them up). */
  private readonly verified: Cache<string, MediaClaims>;

  constructor(
    private readonly signer: JwtSigner,
    private readonly holders: MediaHolders,
    caches: CacheRegistry,
  ) {
    this.verified = caches.create('live-view.verified-media-tokens', { max: 10_000, ttlMs: VERIFIED_TTL_MS });
  }

  /** Whether what the token was issued through still holds: checked on every fetch, cached where the answers are. */
  private async stillHeld(claims: MediaClaims): Promise<boolean> {
    const at = claims.subject.indexOf(':');
    const kind = claims.subject.slice(0, at);
    const id = claims.subject.slice(at + 1);
    let live: boolean;
    if (kind === 'session') live = await this.holders.sessionLive(id, claims.userId);
    else if (kind === 'key') live = await this.holders.keyLive(id, claims.userId);
    // Anything else (tokens of an earlier release named only the person) is refused: the player asks `/hls` again.
    else live = false;
    return live && (await this.holders.seesCamera(claims.userId, claims.cameraExid));
  }

  async issue(claims: MediaClaims, seconds: number): Promise<IssuedToken> {
    const expiresAt = new Date(Date.now() + seconds * 1000);
    const token = await this.signer.signFor(
      MEDIA_AUDIENCE,
      { sub: claims.subject, uid: claims.userId, cam: claims.cameraExid, vid: claims.viewerId },
      expiresAt,
    );
    return { token, expiresAt };
  }

  /** A new viewer id: one per `/hls` call, kept by the tokens of every playlist that viewer reloads. */
  newViewer(): string {
    return randomUUID();
  }

  /** The claims of a valid media token, or null (bad signature, expired, another audience, malformed). */
  async read(token: string): Promise<MediaClaims | null> {
    // A segment fetch is one ES256 verification less (docs/benchmarks.md); the entry leaves at the token's expiry.
    const known = this.verified.get(token);
    if (known) return known;
    try {
      const p = await this.signer.verifyFor(MEDIA_AUDIENCE, token);
      if (typeof p.sub !== 'string' || typeof p.uid !== 'string' || typeof p.cam !== 'string' || typeof p.vid !== 'string') return null;
      const claims: MediaClaims = { subject: p.sub, userId: p.uid, cameraExid: p.cam, viewerId: p.vid };
      const ttlMs = (p.exp ?? 0) * 1000 - Date.now();
      if (ttlMs > 0) this.verified.set(token, claims, { ttlMs });
      return claims;
    } catch {
      return null;
    }
  }

  /** The access layer's verifier for `tokenOnly('media')` routes: `?token=` bound to the path's camera. */
  verifier(): TokenVerifier {
    return async (req) => {
      const token = tokenOf(req);
      const camera = (req.params as Record<string, unknown> | undefined)?.camera_exid;
      if (!token || typeof camera !== 'string') return null;
      const claims = await this.read(token);
      if (!claims || claims.cameraExid !== camera || !(await this.stillHeld(claims))) return null;
      req.mediaViewer = claims;
      return { kind: 'media', cameraExid: claims.cameraExid, subject: claims.subject };
    };
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** On media routes: the accepted token's claims (whom and which viewer), set by the verifier. */
    mediaViewer?: MediaClaims;
  }
}
