// Node-to-node relay of a linked camera's live view (docs/site-link.md, Several nodes): a node that does
// not hold a camera's link asks the node that does, at the address that node wrote on the link's row.
// Each relay request is signed with HMAC-SHA256 under a key kept in the secret store (the same on every
// node of one database), over the time, camera, what and name, and is accepted only within 30 s of that time.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { request } from 'undici';
import { ApiError, type ErrorCode } from '../../lib/errors.js';
import type { TokenGrant } from '../access/index.js';
import type { SecretStore } from '../secrets/index.js';

const RELAY_HEADER = 'x-overlook-relay';
const RELAY_KEY_KIND = 'site-link-relay';
const MAX_SKEW_MS = 30_000;
const HEADERS_TIMEOUT_MS = 15_000;
const BODY_TIMEOUT_MS = 15_000;

export type RelayWhat = 'snapshot' | 'live_playlist' | 'live_segment';

/** The path on a node of one relayed item. */
const relayPath = (exid: string, what: RelayWhat) => `/v2/recorder-links/relay/${encodeURIComponent(exid)}/${what}`;

export interface Relayed {
  body: Buffer;
  contentType: string | null;
  takenAt: string | null;
}

export class NodeRelay {
  private key: Promise<Buffer> | null = null;

  constructor(private readonly secrets: SecretStore) {}

  private relayKey(): Promise<Buffer> {
    this.key ??= this.secrets
      .ensure(RELAY_KEY_KIND, async () => ({ kid: 'relay-1', value: randomBytes(32).toString('base64') }))
      .then(([active]) => Buffer.from(active!.value, 'base64'))
      .catch((err) => {
        this.key = null;
        throw err;
      });
    return this.key;
  }

  private async signature(t: string, exid: string, what: string, name: string): Promise<string> {
    return createHmac('sha256', await this.relayKey())
      .update(`${t}\n${exid}\n${what}\n${name}`)
      .digest('hex');
  }

  /** Asks the node at `nodeUrl` for a linked camera's live item; its errors come back as they were. */
  async fetch(nodeUrl: string, exid: string, what: RelayWhat, name?: string): Promise<Relayed> {
    let url: URL;
    try {
      url = new URL(relayPath(exid, what), nodeUrl);
    } catch {
      throw new ApiError('BAD_GATEWAY', 'The node holding this camera’s site link has no usable address');
    }
    if (name) url.searchParams.set('name', name);
    const t = String(Date.now());
    const sig = await this.signature(t, exid, what, name ?? '');
    let res: Awaited<ReturnType<typeof request>>;
    try {
      res = await request(url, { method: 'GET', headers: { [RELAY_HEADER]: `${t}.${sig}` }, headersTimeout: HEADERS_TIMEOUT_MS, bodyTimeout: BODY_TIMEOUT_MS });
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT')
        throw new ApiError('GATEWAY_TIMEOUT', 'The node holding this camera’s site link did not answer in time');
      throw new ApiError('SERVICE_UNAVAILABLE', 'The node holding this camera’s site link could not be reached');
    }
    const body = Buffer.from(await res.body.arrayBuffer());
    if (res.statusCode !== 200) {
      let parsed: { code?: string; message?: string } = {};
      try {
        parsed = JSON.parse(body.toString('utf8')) as typeof parsed;
      } catch {}
      const code = (['NOT_FOUND', 'SERVICE_UNAVAILABLE', 'GATEWAY_TIMEOUT', 'BAD_GATEWAY'] as ErrorCode[]).find((c) => c === parsed.code) ?? 'BAD_GATEWAY';
      throw new ApiError(code, parsed.message ?? 'The node holding this camera’s site link gave no answer');
    }
    const header = (n: string) => (typeof res.headers[n] === 'string' ? (res.headers[n] as string) : null);
    return { body, contentType: header('content-type'), takenAt: header('x-snapshot-date') };
  }

  /** The access layer's verifier for `tokenOnly('node')`: a relay request signed by a node of this platform. */
  readonly verifier = async (req: FastifyRequest): Promise<TokenGrant | null> => {
    const header = req.headers[RELAY_HEADER];
    if (typeof header !== 'string') return null;
    const [t, sig] = header.split('.');
    if (!t || !sig || !/^\d{1,16}$/.test(t) || !/^[0-9a-f]{64}$/.test(sig)) return null;
    if (Math.abs(Date.now() - Number(t)) > MAX_SKEW_MS) return null;
    const params = req.params as Record<string, unknown>;
    const query = (req.query ?? {}) as Record<string, unknown>;
    const exid = typeof params.camera_exid === 'string' ? params.camera_exid : '';
    const what = typeof params.what === 'string' ? params.what : '';
    const name = typeof query.name === 'string' ? query.name : '';
    const expected = Buffer.from(await this.signature(t, exid, what, name), 'hex');
    const given = Buffer.from(sig, 'hex');
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    return { kind: 'node', cameraExid: exid, subject: 'node' };
  };
}
