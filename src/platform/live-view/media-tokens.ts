// Media tokens: what lets a video player with no headers (ffplay, hls.js, Safari) fetch one camera's
// HLS playlist and segments. A token is a short-lived JWS signed with the platform key but with its own
// audience, so it is never accepted as a sign-in JWT and a JWT is never accepted as one. It names the
// camera (a token for camera A opens nothing of camera B), whom it was issued to (`sub`) and the viewer
// (`vid`, one per `/hls` call) so the stream can count who is watching. The person behind it (`uid`)
// must still see the camera's project whenever a playlist is fetched.
import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { JwtSigner } from '../../lib/auth/jwt.js';
import type { TokenVerifier } from '../access/registered-route.js';
import type { Principal } from '../access/principal.js';

export const MEDIA_AUDIENCE = 'overlook-media';

/** How long the segment links written into each served playlist stay valid: a player fetches them within seconds. */
export const SEGMENT_TOKEN_SECONDS = 120;

export interface MediaClaims {
  cameraExid: string;
  /** Whom it was issued to: `user:<id>` or `key:<id>`. */
  subject: string;
  /** The person acting (the key's owner for keys): their access is checked again on every playlist fetch. */
  userId: string;
  viewerId: string;
}

export interface IssuedToken {
  token: string;
  expiresAt: Date;
}

/** Whom a token is issued to: the person, or the key (acting for its owner). */
export function subjectOf(p: Principal): string {
  if (p.kind === 'user') return `user:${p.userId}`;
  if (p.kind === 'key') return `key:${p.keyId}`;
  return 'anonymous';
}

const tokenOf = (req: FastifyRequest): string | null => {
  const t = (req.query as Record<string, unknown> | undefined)?.token;
  return typeof t === 'string' && t.length > 0 && t.length < 4096 ? t : null;
};

export class MediaTokens {
  constructor(private readonly signer: JwtSigner) {}

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
    try {
      const p = await this.signer.verifyFor(MEDIA_AUDIENCE, token);
      if (typeof p.sub !== 'string' || typeof p.uid !== 'string' || typeof p.cam !== 'string' || typeof p.vid !== 'string') return null;
      return { subject: p.sub, userId: p.uid, cameraExid: p.cam, viewerId: p.vid };
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
      if (!claims || claims.cameraExid !== camera) return null;
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
