// Site links of a project (docs/site-link.md): made by its admins with a pairing code, paired by the
// recorder for a credential, listed with their state, revoked. Revoking forgets the link on every node
// (the `recorder-link` cache fact), so whichever node holds its connection closes it at once.
import type { FastifyRequest } from 'fastify';
import { type RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import type { CacheRegistry } from '../../lib/cache/index.js';
import { ApiError, validation } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { bearerToken } from '../../lib/auth/bearer.js';
import { CREDENTIAL_PREFIX, type PairAnswer, type PairBody, SILENCE_MS } from '../../lib/site-link/protocol.js';
import type { TokenGrant } from '../access/index.js';
import { failureCounter } from '../auth/index.js';
import { cameraRefsByIds, cameraRefsOf } from '../cameras/index.js';
import type { PlatformDb } from '../database.js';
import { projectRowByIdOrThrow } from '../projects/index.js';
import { canonicalCode, newCredential, newPairingCode, sameHash, sha256 } from './pairing.js';
import * as repo from './recorder-links-repository.js';
import type { RecorderLinksTable } from './recorder-links-tables.js';

/** How long a pairing code is good for. */
const PAIRING_CODE_MINUTES = 60;
/** Wrong codes from one address before it must wait, and how long (docs/site-link.md, Pairing). */
const PAIR_FAILURES_PER_ADDRESS = 10;
const PAIR_WINDOW_SECONDS = 15 * 60;

type LinkStatus = 'pending' | 'connected' | 'disconnected' | 'revoked';

export interface LinkRecord {
  id: string;
  name: string;
  status: LinkStatus;
  last_seen_at: string | null;
  created_at: string;
  paired_at: string | null;
  revoked_at: string | null;
  recorder_name: string | null;
  recorder_version: string | null;
  /** Pending links only: until when the pairing code works. */
  code_expires_at: string | null;
  cameras: { exid: string; name: string; status: string; device_id: string }[];
}

export interface NewLink {
  id: string;
  pairing_code: string;
  expires_at: string;
}

/** What the link's row says of it now; connected while its holder renews `last_seen_at` (every heartbeat). */
function statusOf(row: Pick<RecorderLinksTable, 'revoked_at' | 'paired_at' | 'connection_id' | 'last_seen_at'>, now: number): LinkStatus {
  if (row.revoked_at) return 'revoked';
  if (!row.paired_at) return 'pending';
  if (row.connection_id && row.last_seen_at && Date.parse(row.last_seen_at) > now - SILENCE_MS) return 'connected';
  return 'disconnected';
}

export const linkFact = (id: string) => ({ kind: 'recorder-link' as const, id });

export class RecorderLinksService {
  private readonly pairFailures: RateLimiterAbstract;

  constructor(
    private readonly db: PlatformDb,
    private readonly caches: CacheRegistry,
  ) {
    this.pairFailures = failureCounter(db, {
      keyPrefix: 'linkpair',
      points: PAIR_FAILURES_PER_ADDRESS - 1,
      duration: PAIR_WINDOW_SECONDS,
      blockDuration: PAIR_WINDOW_SECONDS,
    });
  }

  async create(project: { id: string }, userId: string, input: { name?: string }): Promise<NewLink> {
    const name = (input.name ?? 'Site recorder').trim();
    if (!name) throw validation('name', 'must not be blank');
    const code = newPairingCode();
    const now = Date.now();
    const expiresAt = new Date(now + PAIRING_CODE_MINUTES * 60_000).toISOString();
    const id = newId();
    await repo.insertLink(this.db, {
      id,
      project_id: project.id,
      name,
      code_hash: sha256(canonicalCode(code)!),
      code_expires_at: expiresAt,
      credential_hash: null,
      recorder_name: null,
      recorder_version: null,
      created_by: userId,
      created_at: new Date(now).toISOString(),
      paired_at: null,
      revoked_at: null,
      last_seen_at: null,
      connection_id: null,
      node_id: null,
      node_url: null,
    });
    return { id, pairing_code: code, expires_at: expiresAt };
  }

  async list(project: { id: string }): Promise<LinkRecord[]> {
    const rows = await repo.linksOfProject(this.db, project.id);
    const devices = await repo.devicesOfLinks(
      this.db,
      rows.map((r) => r.id),
    );
    const cameras = await cameraRefsByIds(
      this.db,
      devices.map((d) => d.camera_id),
    );
    const statuses = new Map((await cameraRefsOf(this.db, project.id)).map((c) => [c.exid, c.status]));
    const now = Date.now();
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      status: statusOf(r, now),
      last_seen_at: r.last_seen_at,
      created_at: r.created_at,
      paired_at: r.paired_at,
      revoked_at: r.revoked_at,
      recorder_name: r.recorder_name,
      recorder_version: r.recorder_version,
      code_expires_at: r.paired_at || r.revoked_at ? null : r.code_expires_at,
      cameras: devices
        .filter((d) => d.link_id === r.id && cameras.has(d.camera_id))
        .map((d) => {
          const c = cameras.get(d.camera_id)!;
          return { exid: c.exid, name: c.name, status: statuses.get(c.exid) ?? 'offline', device_id: d.device_id };
        })
        .sort((a, b) => a.name.localeCompare(b.name)),
    }));
  }

  async revoke(project: { id: string }, id: string): Promise<void> {
    const done = await repo.revokeLink(this.db, project.id, id, new Date().toISOString());
    if (!done) {
      const row = await repo.linkById(this.db, id);
      if (!row || row.project_id !== project.id) throw new ApiError('NOT_FOUND', 'Site link not found');
      return; // revoked already: the same outcome
    }
    // Every node hears it; the one holding the connection closes it (docs/site-link.md, Revoking).
    await this.caches.forget([linkFact(id)]);
  }

  /** Exchanges a pairing code for the link's credential; wrong codes are counted per address. */
  async pair(ip: string, body: PairBody): Promise<PairAnswer> {
    const blocked = await this.pairFailures.get(ip);
    if (blocked && blocked.consumedPoints > PAIR_FAILURES_PER_ADDRESS - 1) {
      throw this.tooMany(blocked.msBeforeNext);
    }
    const code = canonicalCode(body.code);
    const codeHash = code ? sha256(code) : null;
    const found = codeHash ? await repo.linkByCodeHash(this.db, codeHash) : undefined;
    const now = new Date().toISOString();
    if (!found || found.revoked_at || !codeHash) {
      await this.countFailure(ip);
      throw new ApiError('PAIRING_CODE_INVALID', 'This pairing code is wrong, was used already, or its link was revoked');
    }
    if (!found.code_expires_at || found.code_expires_at <= now) {
      await this.countFailure(ip);
      throw new ApiError('PAIRING_CODE_EXPIRED', `This pairing code has expired (codes last ${PAIRING_CODE_MINUTES} minutes): create the link again`);
    }
    const credential = newCredential();
    const paired = await repo.pair(this.db, codeHash, now, { credential_hash: sha256(credential), recorder_name: body.recorder_name?.trim() || null });
    if (!paired) throw new ApiError('PAIRING_CODE_INVALID', 'This pairing code was used already');
    const link = (await repo.linkById(this.db, found.id))!;
    const project = await projectRowByIdOrThrow(this.db, link.project_id);
    return { link_id: link.id, project_exid: project.exid, credential };
  }

  private async countFailure(ip: string): Promise<void> {
    try {
      await this.pairFailures.consume(ip);
    } catch (err) {
      if (err instanceof RateLimiterRes) throw this.tooMany(err.msBeforeNext);
      throw err;
    }
  }

  private tooMany(ms: number): ApiError {
    const seconds = Math.max(1, Math.ceil(ms / 1000));
    return new ApiError('TOO_MANY_REQUESTS', `Too many wrong pairing codes from this address; try again in ${seconds} s`, {
      headers: { 'retry-after': String(seconds) },
    });
  }

  /** A link's row, as the connection reads it when it opens. */
  async linkById(id: string): Promise<RecorderLinksTable | null> {
    return (await repo.linkById(this.db, id)) ?? null;
  }

  /** The link a credential belongs to (revoked ones too: their connection is told so), or null. */
  async linkOfCredential(credential: string): Promise<RecorderLinksTable | null> {
    if (!credential.startsWith(CREDENTIAL_PREFIX) || credential.length > 200) return null;
    const hash = sha256(credential);
    const row = await repo.linkByCredentialHash(this.db, hash);
    return row?.credential_hash && sameHash(row.credential_hash, hash) ? row : null;
  }

  /** The access layer's verifier for `tokenOnly('link')`: a known link credential in `Authorization: Bearer`. */
  readonly verifier = async (req: FastifyRequest): Promise<TokenGrant | null> => {
    const header = req.headers.authorization;
    const token = typeof header === 'string' ? bearerToken(header) : undefined;
    if (!token) return null;
    const row = await this.linkOfCredential(token);
    return row ? { kind: 'link', cameraExid: null, subject: row.id } : null;
  };
}
