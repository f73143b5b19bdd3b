// Per-camera ingestion tokens: how cameras and recorders push ANPR events without a person's
// credential or an API key. A project admin creates one (the value is shown once, only its hash kept),
// lists them and revokes them; the verifier below is the access layer's check for `tokenOnly('ingestion')`.
import type { FastifyRequest } from 'fastify';
import type { PlatformDb } from '../database.js';
import { ApiError, validation } from '../../lib/errors.js';
import { sameHash } from '../../lib/auth/api-key-format.js';
import { bearerToken } from '../../lib/auth/bearer.js';
import { newId } from '../../lib/ids.js';
import type { TokenGrant, TokenVerifier } from '../access/index.js';
import {
  generateIngestionToken,
  hashIngestionToken,
  ingestionTokenHint,
  INGESTION_TOKEN_PREFIX,
  isWellFormedIngestionToken,
} from './ingestion-token-format.js';
import * as repo from './anpr-repository.js';

/** `last_used_at` is written at most this often per token, not on every event. */
const TOUCH_EVERY_MS = 60_000;

export interface IngestionTokenRecord {
  id: string;
  name: string;
  hint: string;
  status: 'active' | 'revoked';
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

const toRecord = (r: {
  id: string;
  name: string;
  token_hint: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}): IngestionTokenRecord => ({
  id: r.id,
  name: r.name,
  hint: r.token_hint,
  status: r.revoked_at ? 'revoked' : 'active',
  created_at: r.created_at,
  last_used_at: r.last_used_at,
  revoked_at: r.revoked_at,
});

/** The token a request carries: `Authorization: Bearer oit_…`, else `?token=oit_…` (cameras that cannot set headers). */
function presentedToken(req: FastifyRequest): string | undefined {
  const auth = req.headers.authorization;
  if (typeof auth === 'string') {
    const token = bearerToken(auth);
    if (token?.startsWith(INGESTION_TOKEN_PREFIX)) return token;
  }
  const q = (req.query as Record<string, unknown> | undefined)?.token;
  return typeof q === 'string' ? q : undefined;
}

export class IngestionTokens {
  constructor(private readonly db: PlatformDb) {}

  async create(cameraId: string, createdBy: string, name: string): Promise<IngestionTokenRecord & { token: string }> {
    const label = name.trim();
    if (!label) throw validation('name', 'must not be blank');
    const token = generateIngestionToken();
    const row = {
      id: newId(),
      camera_id: cameraId,
      name: label,
      token_hash: hashIngestionToken(token).toString('hex'),
      token_hint: ingestionTokenHint(token),
      created_by: createdBy,
      created_at: new Date().toISOString(),
      last_used_at: null,
      revoked_at: null,
    };
    await repo.insertToken(this.db, row);
    return { ...toRecord(row), token };
  }

  async list(cameraId: string): Promise<IngestionTokenRecord[]> {
    return (await repo.tokensOfCamera(this.db, cameraId)).map(toRecord);
  }

  /** Revokes a token of this camera; revoking it again is a no-op. */
  async revoke(cameraId: string, id: string): Promise<void> {
    const row = await repo.tokenOfCamera(this.db, cameraId, id);
    if (!row) throw new ApiError('NOT_FOUND', 'Ingestion token not found');
    if (!row.revoked_at) await repo.revokeToken(this.db, id, new Date().toISOString());
  }

  /**
   * The access layer's check: a well-formed, known (compared in constant time), unrevoked token of the
   * path's camera. No cache, so a revoked token is refused from the very next request.
   */
  readonly verifier: TokenVerifier = async (req): Promise<TokenGrant | null> => {
    const value = presentedToken(req);
    if (!value || !isWellFormedIngestionToken(value)) return null;
    const digest = hashIngestionToken(value);
    const row = await repo.tokenByHash(this.db, digest.toString('hex'));
    if (!row || !sameHash(Buffer.from(row.token_hash, 'hex'), digest) || row.revoked_at) return null;
    const cameraExid = (req.params as Record<string, unknown> | undefined)?.camera_exid;
    if (typeof cameraExid !== 'string' || cameraExid !== row.camera_exid) return null;
    const now = Date.now();
    if (!row.last_used_at || now - Date.parse(row.last_used_at) > TOUCH_EVERY_MS) await repo.touchToken(this.db, row.id, new Date(now).toISOString());
    return { kind: 'ingestion', cameraExid: row.camera_exid, subject: row.id };
  };
}
