// Live view of linked cameras (docs/site-link.md, Live view): the snapshot, the live playlist and its
// segments are asked of the recorder over its link, only when someone asks for them. On the node that
// holds the link a playlist answer is shared by every viewer for half a second and segments are kept
// briefly; a node without the link asks the holder through the signed node relay. Viewers are counted
// as the live view counts them: one per `/hls` call seen within the idle timeout.
import type { Cache, CacheRegistry } from '../../lib/cache/index.js';
import { ApiError } from '../../lib/errors.js';
import type { CameraRow } from '../cameras/index.js';
import type { PlatformDb } from '../database.js';
import type { LinkedLive, LiveSnapshot, StreamStatus } from '../live-view/index.js';
import type { LinkHub, NodeIdentity } from './link-hub.js';
import type { RecorderReply } from './link-session.js';
import type { NodeRelay, Relayed, RelayWhat } from './node-relay.js';
import * as repo from './recorder-links-repository.js';

/** Names a recorder's segment may have (as the protocol allows them in a request). */
const SEGMENT = /^[A-Za-z0-9_.-]{1,100}$/;
const PLAYLIST_SHARED_MS = 500;
const SEGMENT_KEPT_MS = 30_000;

export interface LinkedLiveOptions {
  /** How long the recorder has to answer a request. */
  requestTimeoutMs: number;
  /** How long a viewer counts after their last fetch (the live view's idle timeout). */
  idleMs: number;
}

/** The recorder's answer as what the live view serves, or its refusal as the matching error. */
function answered(reply: RecorderReply, what: string): Relayed {
  if (reply.status === 200 && reply.body) return { body: reply.body, contentType: reply.contentType, takenAt: null };
  const why = reply.message ? `: ${reply.message}` : '';
  if (reply.status === 404) throw new ApiError('NOT_FOUND', `The site recorder has no ${what}${why}`);
  if (reply.status === 503) throw new ApiError('SERVICE_UNAVAILABLE', `The site recorder cannot give the ${what} now${why}`);
  if (reply.status === 504) throw new ApiError('GATEWAY_TIMEOUT', `The camera did not give the ${what} in time${why}`);
  throw new ApiError('BAD_GATEWAY', `The site recorder gave no ${what}${why}`);
}

/** The recorder's playlist with every URI reduced to its segment name (segments are served beside the playlist). */
function bareSegmentNames(playlist: string): string {
  const out: string[] = [];
  for (const line of playlist.split('\n')) {
    const l = line.trim();
    if (l === '' || l.startsWith('#')) {
      out.push(line);
      continue;
    }
    const name = l.split(/[?#]/)[0]!.split('/').pop() ?? '';
    if (SEGMENT.test(name)) out.push(name);
  }
  return out.join('\n');
}

export class LinkedLiveView implements LinkedLive {
  private readonly playlists: Cache<string, Relayed>;
  private readonly segments: Cache<string, Relayed>;
  /** Camera exid → viewer id → when last seen. */
  private readonly viewers = new Map<string, Map<string, number>>();

  constructor(
    private readonly db: PlatformDb,
    caches: CacheRegistry,
    private readonly hub: LinkHub,
    private readonly relay: NodeRelay,
    private readonly node: NodeIdentity,
    private readonly opts: LinkedLiveOptions,
  ) {
    this.playlists = caches.create('recorder-links.live-playlists', { max: 2000, ttlMs: PLAYLIST_SHARED_MS });
    this.segments = caches.create('recorder-links.live-segments', { max: 64, ttlMs: SEGMENT_KEPT_MS });
  }

  isSegmentName(name: string): boolean {
    return SEGMENT.test(name) && !name.startsWith('.');
  }

  async snapshot(row: CameraRow): Promise<LiveSnapshot> {
    const got = await this.fetch(row, 'snapshot');
    const jpeg = got.body;
    if (jpeg.length < 4 || jpeg[0] !== 0xff || jpeg[1] !== 0xd8) throw new ApiError('BAD_GATEWAY', 'The site recorder answered, but not with a JPEG image');
    return { jpeg, takenAt: got.takenAt ? new Date(got.takenAt) : new Date() };
  }

  async playlist(row: CameraRow, viewerId: string): Promise<string> {
    this.touch(row.exid, viewerId);
    return bareSegmentNames((await this.fetch(row, 'live_playlist')).body.toString('utf8'));
  }

  async segment(row: CameraRow, name: string, viewerId: string): Promise<Buffer> {
    this.touch(row.exid, viewerId);
    return (await this.fetch(row, 'live_segment', name)).body;
  }

  status(exid: string): StreamStatus {
    const seen = this.viewers.get(exid);
    const since = Date.now() - this.opts.idleMs;
    if (seen) for (const [id, at] of seen) if (at < since) seen.delete(id);
    const viewers = seen?.size ?? 0;
    if (seen && viewers === 0) this.viewers.delete(exid);
    return { running: viewers > 0, viewers, mode: 'linked' };
  }

  /** Answers a relay request from another node: only what this node's own link can give. */
  async local(row: CameraRow, what: RelayWhat, name?: string): Promise<Relayed> {
    const device = await this.deviceOf(row);
    const session = this.hub.sessionOf(device.link_id);
    if (!session) throw new ApiError('SERVICE_UNAVAILABLE', 'This camera’s site recorder is not connected to this node');
    return this.ask(device.link_id, device.device_id, what, name);
  }

  private touch(exid: string, viewerId: string): void {
    const seen = this.viewers.get(exid) ?? new Map<string, number>();
    this.viewers.set(exid, seen);
    seen.set(viewerId, Date.now());
  }

  private async deviceOf(row: CameraRow) {
    const device = await repo.deviceOfCamera(this.db, row.id);
    if (!device) throw new ApiError('NOT_FOUND', 'This camera is no longer shared by a site recorder');
    return device;
  }

  /** From the link here, else through the node holding it, else 503. */
  private async fetch(row: CameraRow, what: RelayWhat, name?: string): Promise<Relayed> {
    const device = await this.deviceOf(row);
    if (this.hub.sessionOf(device.link_id)) return this.ask(device.link_id, device.device_id, what, name);
    const link = await repo.linkById(this.db, device.link_id);
    if (!link || link.revoked_at) throw new ApiError('SERVICE_UNAVAILABLE', 'This camera’s site link was revoked');
    if (!link.connection_id || !link.node_id || link.node_id === this.node.nodeId || !link.node_url) {
      throw new ApiError('SERVICE_UNAVAILABLE', 'This camera’s site recorder is not connected; try again when it is back');
    }
    return this.relay.fetch(link.node_url, row.exid, what, name);
  }

  private ask(linkId: string, deviceId: string, what: RelayWhat, name?: string): Promise<Relayed> {
    const load = async () => {
      const session = this.hub.sessionOf(linkId);
      if (!session) throw new ApiError('SERVICE_UNAVAILABLE', 'This camera’s site recorder is not connected');
      const label = what === 'snapshot' ? 'snapshot' : what === 'live_playlist' ? 'live playlist' : 'live segment';
      return answered(await session.request(what, deviceId, name, this.opts.requestTimeoutMs), label);
    };
    // Shared by the viewers asking at once, and for a moment after (segments a little longer).
    if (what === 'live_playlist') return this.playlists.load(`${linkId}/${deviceId}`, load);
    if (what === 'live_segment') return this.segments.load(`${linkId}/${deviceId}/${name}`, load);
    return load();
  }
}
