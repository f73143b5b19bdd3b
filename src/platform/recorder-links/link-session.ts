// One recorder's connection on this node (docs/site-link.md, The connection): the WebSocket, its
// heartbeat, the requests the platform makes of the recorder and their replies. What the recorder's
// messages mean is the hub's business (`onMessage`); replies, pings and pongs are answered here at once,
// so a live request is never queued behind frames being stored.
import type { WebSocket } from '@fastify/websocket';
import { ApiError } from '../../lib/errors.js';
import { CloseCode, decodeFromRecorder, encode, type FromPlatform, type FromRecorder, HEARTBEAT_MS, SILENCE_MS } from '../../lib/site-link/protocol.js';

/** What a request of the recorder answered. */
export interface RecorderReply {
  status: number;
  contentType: string | null;
  message: string | null;
  body: Buffer | null;
}

type RequestWhat = Extract<FromPlatform, { type: 'request' }>['what'];

interface Pending {
  resolve(reply: RecorderReply): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

type Decoded = Exclude<FromRecorder, { type: 'reply' | 'ping' | 'pong' }>;

export interface SessionHandlers {
  /** A devices, frame or event message, in the order they came; the next waits for this one. */
  onMessage(message: Decoded, payload: Buffer | null): Promise<void>;
  /** Every heartbeat while the connection is up (renews the link's row). */
  onHeartbeat(): Promise<void>;
  /** The connection ended, whoever ended it; `code` is the close code. */
  onClosed(code: number): void;
}

export class LinkSession {
  private readonly pending = new Map<number, Pending>();
  private nextReq = 1;
  private lastHeard = Date.now();
  private heartbeat: NodeJS.Timeout | null = null;
  private queue: Promise<void> = Promise.resolve();
  private ended = false;

  constructor(
    readonly linkId: string,
    readonly connectionId: string,
    private readonly socket: WebSocket,
    private readonly handlers: SessionHandlers,
    private readonly log: { warn(obj: object, msg: string): void },
  ) {
    socket.on('message', (data: Buffer, isBinary: boolean) => this.received(isBinary ? data : data.toString('utf8')));
    socket.on('pong', () => this.heard());
    socket.on('close', (code: number) => this.closed(code));
    socket.on('error', (err: Error) => this.log.warn({ err, link: linkId }, 'site link: connection error'));
    this.heartbeat = setInterval(() => this.beat(), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  get open(): boolean {
    return !this.ended;
  }

  send(message: FromPlatform): void {
    if (!this.ended) this.socket.send(encode(message));
  }

  /** Ends the connection with a close code of the protocol (or 1001 when the node shuts down). */
  close(code: number, reason: string): void {
    if (this.ended) return;
    this.socket.close(code, reason.slice(0, 120));
    // A peer that never answers the close is cut off, so the node does not wait on it.
    setTimeout(() => this.socket.terminate(), 2000).unref();
    this.closed(code);
  }

  /** Asks the recorder something of a device; 504 when it does not answer within `timeoutMs`. */
  request(what: RequestWhat, deviceId: string, name: string | undefined, timeoutMs: number): Promise<RecorderReply> {
    if (this.ended) return Promise.reject(new ApiError('SERVICE_UNAVAILABLE', 'The site recorder is not connected'));
    const req = this.nextReq++;
    return new Promise<RecorderReply>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(req);
        reject(new ApiError('GATEWAY_TIMEOUT', 'The site recorder did not answer in time'));
      }, timeoutMs);
      this.pending.set(req, { resolve, reject, timer });
      this.send({ type: 'request', req, what, device_id: deviceId, ...(name ? { name } : {}) });
    });
  }

  private heard(): void {
    this.lastHeard = Date.now();
  }

  private beat(): void {
    if (Date.now() - this.lastHeard > SILENCE_MS) {
      this.close(CloseCode.SILENT, 'nothing heard from the recorder');
      return;
    }
    this.send({ type: 'ping', at: new Date().toISOString() });
    this.handlers.onHeartbeat().catch((err) => this.log.warn({ err, link: this.linkId }, 'site link: heartbeat not recorded'));
  }

  private received(data: string | Buffer): void {
    if (this.ended) return;
    this.heard();
    const decoded = decodeFromRecorder(data);
    if (!decoded) {
      this.close(CloseCode.PROTOCOL_ERROR, 'a message did not fit the protocol');
      return;
    }
    const { message, payload } = decoded;
    switch (message.type) {
      case 'ping':
        this.send({ type: 'pong', at: new Date().toISOString() });
        return;
      case 'pong':
        return;
      case 'reply': {
        const waiting = this.pending.get(message.req);
        if (!waiting) return; // answered too late: its asker has had its 504
        this.pending.delete(message.req);
        clearTimeout(waiting.timer);
        waiting.resolve({ status: message.status, contentType: message.content_type ?? null, message: message.message ?? null, body: payload });
        return;
      }
      default:
        this.queue = this.queue.then(() => {
          // A closed connection acknowledges nothing, so the recorder sends it all again on its next one;
          // storing it here too would only race that connection (and could revive cameras gone offline).
          if (this.ended) return;
          return this.handlers.onMessage(message, payload).catch((err) => {
            // Not stored, so not acknowledged: the recorder sends it again on its next connection.
            this.log.warn({ err, link: this.linkId }, 'site link: a message could not be handled; reconnect to resend');
            this.close(1011, 'the platform could not store a message');
          });
        });
    }
  }

  private closed(code: number): void {
    if (this.ended) return;
    this.ended = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    for (const [, waiting] of this.pending) {
      clearTimeout(waiting.timer);
      waiting.reject(new ApiError('SERVICE_UNAVAILABLE', 'The site link closed before the recorder answered'));
    }
    this.pending.clear();
    this.handlers.onClosed(code);
  }
}
