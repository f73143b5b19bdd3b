// The recorder's end of the site link (docs/recorder.md, Platform link): while linked, one outbound
// WebSocket to the platform, kept open with heartbeats and reopened with exponential back-off and
// jitter. It tells the platform which devices are shared (on connect and whenever they change), sends
// the outbox oldest first with at most MAX_UNACKED unacknowledged, keeps the cloud-frame schedules the
// platform sends, and answers its requests. A close as REVOKED stops it for good, across restarts,
// until the recorder is linked again.
import { WebSocket, type Dispatcher } from 'undici';
import {
  CloseCode,
  CONNECT_PATH,
  decodeFromPlatform,
  encode,
  HEARTBEAT_MS,
  MAX_UNACKED,
  SUBPROTOCOL,
  type FromPlatform,
  type FromRecorder,
  type SharedDevice,
} from '../../lib/site-link/protocol.js';
import type { DevicesService } from '../devices/index.js';
import type { CloudFrames } from './cloud-frames.js';
import type { LinkStore, StoredLink } from './link-store.js';
import type { LiveFrames } from './live-frames.js';
import type { Outbox } from './outbox.js';
import { answerRequest } from './requests.js';

const MIN_BACKOFF_MS = 1000;
/** How often the stored link and the shared devices are looked at (a change reaches the platform within this). */
const SYNC_MS = 2000;

export type LinkState = 'unlinked' | 'connecting' | 'connected' | 'disconnected' | 'revoked';

interface Log {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface SiteLinkDeps {
  store: LinkStore;
  outbox: Outbox;
  devices: DevicesService;
  live: LiveFrames;
  frames: CloudFrames;
  dispatcher: Dispatcher;
  version: string;
  log: Log;
  /** The longest wait between two reconnection attempts (OVERLOOK_RECORDER_LINK_RETRY_MAX_SECONDS). */
  maxBackoffMs: number;
  /** How long the link may stay silent before it is dropped (OVERLOOK_RECORDER_LINK_SILENCE_SECONDS). */
  silenceMs: number;
}

function wsUrl(platformUrl: string): string {
  const u = new URL(`${platformUrl.replace(/\/+$/, '')}${CONNECT_PATH}`);
  u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
  return u.toString();
}

export class SiteLink {
  private link: StoredLink | null = null;
  private ws: WebSocket | null = null;
  private connected = false;
  private attempts = 0;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private syncTimer: NodeJS.Timeout | null = null;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private lastHeard = 0;
  private lastError: string | null = null;
  private sentDevices = '';
  /** The newest seq sent on this connection; everything after it is still to send. */
  private sentUpTo = 0;
  private readonly unacked = new Set<number>();
  private pumping = false;
  private pumpAgain = false;
  private running = false;
  private syncing: Promise<void> = Promise.resolve();

  constructor(private readonly deps: SiteLinkDeps) {
    deps.outbox.onAdded(() => void this.pump());
  }

  /** Starts keeping the link (if the recorder is linked), and notices later link and device changes. */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    await this.sync();
    this.syncTimer = setInterval(() => void this.sync(), SYNC_MS);
    this.syncTimer.unref();
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.syncTimer) clearInterval(this.syncTimer);
    this.syncTimer = null;
    await this.syncing;
    this.disconnect();
    this.deps.frames.stop();
  }

  state(): { state: LinkState; lastError: string | null } {
    const link = this.link;
    if (!link) return { state: 'unlinked', lastError: null };
    if (link.revokedAt) return { state: 'revoked', lastError: link.lastError };
    const state = this.connected ? 'connected' : this.attempts === 0 && this.ws ? 'connecting' : 'disconnected';
    return { state, lastError: this.lastError ?? link.lastError };
  }

  /** Looks at the stored link and the shared devices now (after linking or unlinking, and every SYNC_MS). */
  sync(): Promise<void> {
    this.syncing = this.syncing.then(() => this.syncOnce()).catch((err) => this.deps.log.warn({ err }, 'platform link: sync failed'));
    return this.syncing;
  }

  private async syncOnce(): Promise<void> {
    const stored = await this.deps.store.get();
    const same = stored?.linkId === this.link?.linkId && Boolean(stored?.revokedAt) === Boolean(this.link?.revokedAt);
    if (!same) {
      this.disconnect();
      this.link = stored;
      this.lastError = null;
      this.attempts = 0;
      if (stored && !stored.revokedAt && this.running) {
        this.deps.frames.setSchedules(await this.deps.store.schedules());
        this.deps.frames.start();
        this.connect();
      } else this.deps.frames.stop();
      return;
    }
    this.link = stored;
    if (this.connected) await this.sendDevices(false);
  }

  /** Whether events and frames of this device are owed to a platform now. */
  async shares(deviceId: string): Promise<boolean> {
    if (!this.link || this.link.revokedAt) return false;
    return (await this.deps.devices.exists(deviceId)) && (await this.deps.devices.get(deviceId)).share_with_platform;
  }

  private connect(): void {
    const link = this.link;
    if (!link || link.revokedAt || !this.running) return;
    let ws: WebSocket;
    try {
      ws = new WebSocket(wsUrl(link.platformUrl), {
        protocols: [SUBPROTOCOL],
        headers: { authorization: `Bearer ${link.credential}` },
        dispatcher: this.deps.dispatcher,
      });
    } catch (err) {
      this.lastError = (err as Error).message;
      this.scheduleReconnect();
      return;
    }
    ws.binaryType = 'arraybuffer';
    this.ws = ws;
    ws.addEventListener('open', () => {
      if (this.ws !== ws) return;
      this.connected = true;
      this.attempts = 0;
      this.lastError = null;
      this.lastHeard = Date.now();
      this.sentDevices = '';
      this.sentUpTo = 0;
      this.unacked.clear();
      void this.deps.store.setLastError(link.linkId, null);
      this.deps.log.info({ platform: link.platformUrl }, 'platform link connected');
      this.heartbeatTimer = setInterval(() => this.heartbeat(ws), Math.min(HEARTBEAT_MS, this.deps.silenceMs / 3));
      this.heartbeatTimer.unref();
      void this.sendDevices(true).then(() => this.pump());
    });
    ws.addEventListener('message', (ev) => {
      if (this.ws !== ws) return;
      this.lastHeard = Date.now();
      const data = typeof ev.data === 'string' ? ev.data : Buffer.from(ev.data as ArrayBuffer);
      const decoded = decodeFromPlatform(data);
      if (!decoded) {
        this.lastError = 'the platform sent a message that does not fit the protocol';
        ws.close(CloseCode.PROTOCOL_ERROR, 'protocol error');
        return;
      }
      void this.onMessage(ws, decoded.message).catch((err) => this.deps.log.warn({ err }, 'platform link: handling a message failed'));
    });
    ws.addEventListener('error', (ev) => {
      const err = (ev as unknown as { error?: Error }).error;
      if (this.ws === ws) this.lastError = err?.message ? `connection failed: ${err.message}` : 'connection failed';
    });
    ws.addEventListener('close', (ev) => {
      if (this.ws !== ws) return;
      this.dropConnection();
      if (ev.code === CloseCode.REVOKED) {
        this.deps.log.warn({ platform: link.platformUrl }, 'the platform revoked this recorder’s link; not reconnecting');
        this.link = { ...link, revokedAt: new Date().toISOString(), lastError: 'the platform revoked this link; link again with a new code' };
        this.deps.frames.stop();
        void this.deps.store.markRevoked(link.linkId);
        return;
      }
      if (ev.code !== 1006 || !this.lastError) this.lastError = `connection closed (${ev.code}${ev.reason ? `: ${ev.reason}` : ''})`;
      void this.deps.store.setLastError(link.linkId, this.lastError);
      this.scheduleReconnect();
    });
  }

  private heartbeat(ws: WebSocket): void {
    if (Date.now() - this.lastHeard > this.deps.silenceMs) {
      this.lastError = `nothing heard from the platform for ${this.deps.silenceMs / 1000} s`;
      ws.close(CloseCode.SILENT, 'silent');
      // A dead network may never finish the closing handshake: reconnect without waiting for it.
      this.dropConnection();
      this.scheduleReconnect();
      return;
    }
    this.send({ type: 'ping', at: new Date().toISOString() });
  }

  private scheduleReconnect(): void {
    if (!this.running || !this.link || this.link.revokedAt || this.reconnectTimer) return;
    const base = Math.min(this.deps.maxBackoffMs, MIN_BACKOFF_MS * 2 ** this.attempts);
    this.attempts++;
    // Jitter: many recorders cut off together do not all come back in the same second.
    const delay = base / 2 + Math.random() * (base / 2);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.connect();
    }, delay);
    this.reconnectTimer.unref();
  }

  private dropConnection(): void {
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = null;
    this.connected = false;
    this.ws = null;
    this.unacked.clear();
  }

  private disconnect(): void {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    const ws = this.ws;
    this.dropConnection();
    if (ws && ws.readyState !== WebSocket.CLOSED) ws.close(1000, 'unlinked or stopping');
  }

  private send(message: FromRecorder, payload?: Buffer): boolean {
    if (!this.ws || !this.connected) return false;
    this.ws.send(encode(message, payload));
    return true;
  }

  private async sendDevices(force: boolean): Promise<void> {
    const devices: SharedDevice[] = (await this.deps.devices.list())
      .filter((d) => d.share_with_platform)
      .slice(0, 500)
      .map((d) => ({ id: d.id, name: d.name.slice(0, 200), state: d.state, timezone: d.timezone }));
    const json = JSON.stringify(devices);
    if (!force && json === this.sentDevices) return;
    if (this.send({ type: 'devices', recorder_version: this.deps.version, devices })) this.sentDevices = json;
  }

  private async onMessage(ws: WebSocket, m: FromPlatform): Promise<void> {
    switch (m.type) {
      case 'welcome':
      case 'pong':
        return;
      case 'ping':
        this.send({ type: 'pong', at: new Date().toISOString() });
        return;
      case 'ack':
        for (const seq of this.unacked) if (seq <= m.seq) this.unacked.delete(seq);
        await this.deps.outbox.ackUpTo(m.seq);
        await this.pump();
        return;
      case 'schedules':
        await this.deps.store.replaceSchedules(m.schedules);
        this.deps.frames.setSchedules(m.schedules);
        return;
      case 'request': {
        const answer = await answerRequest(m, this.deps).catch((err: Error) => ({
          status: 500,
          message: `the recorder could not answer: ${err.message}`.slice(0, 500),
          contentType: undefined,
          body: undefined,
        }));
        if (this.ws !== ws) return;
        const reply: FromRecorder = { type: 'reply', req: m.req, status: answer.status };
        if (answer.contentType) reply.content_type = answer.contentType;
        if (answer.message) reply.message = answer.message.slice(0, 500);
        this.send(reply, answer.body);
        return;
      }
    }
  }

  /** Sends what is owed, oldest first, while fewer than MAX_UNACKED are unacknowledged. */
  private async pump(): Promise<void> {
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    try {
      do {
        this.pumpAgain = false;
        while (this.connected && this.unacked.size < MAX_UNACKED) {
          const items = await this.deps.outbox.after(this.sentUpTo, MAX_UNACKED - this.unacked.size);
          if (items.length === 0 || !this.connected) break;
          for (const item of items) {
            const sent =
              item.kind === 'frame' && item.jpeg
                ? this.send({ type: 'frame', seq: item.seq, device_id: item.deviceId, taken_at: item.takenAt }, item.jpeg)
                : this.send(
                    { type: 'event', seq: item.seq, device_id: item.deviceId, kind: item.kind, at: item.takenAt, data: item.data ?? {} },
                    item.jpeg ?? undefined,
                  );
            if (!sent) break;
            this.unacked.add(item.seq);
            this.sentUpTo = item.seq;
          }
        }
      } while (this.pumpAgain);
    } catch (err) {
      this.deps.log.warn({ err }, 'platform link: sending the backlog failed');
    } finally {
      this.pumping = false;
    }
  }
}
