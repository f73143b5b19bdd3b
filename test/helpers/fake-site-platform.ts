// A fake platform for the recorder's site-link tests: the pairing route and the link's WebSocket,
// speaking src/lib/site-link/protocol.ts on 127.0.0.1:0. It records what the recorder sends, and lets a
// test stop acknowledging, send schedules and requests, close the link with a code, or go away.
import Fastify, { type FastifyInstance } from 'fastify';
import websocket from '@fastify/websocket';
import type { WebSocket } from 'ws';
import {
  CONNECT_PATH,
  CREDENTIAL_PREFIX,
  decodeFromRecorder,
  encode,
  PAIR_PATH,
  type FromPlatform,
  type FromRecorder,
} from '../../src/lib/site-link/protocol.js';

export interface Received {
  message: FromRecorder;
  payload: Buffer | null;
}

export interface Connection {
  authorization: string | undefined;
  protocol: string;
  received: Received[];
  socket: WebSocket;
  closed: { code: number } | null;
}

export const CODE = 'GOOD-CODE-123';
export const CREDENTIAL = `${CREDENTIAL_PREFIX}test-credential`;

export class FakePlatform {
  readonly connections: Connection[] = [];
  /** Acknowledges every frame and event on arrival while true. */
  acking = true;
  /** While true the platform says nothing at all (no pong, no ack): a link gone dead without closing. */
  silent = false;
  /** Sent right after `welcome`. */
  schedules: Extract<FromPlatform, { type: 'schedules' }>['schedules'] = [];
  pairings = 0;
  private codeUsed = false;
  private nextReq = 1;
  private readonly replies = new Map<number, (r: Received) => void>();
  app: FastifyInstance | null = null;
  port = 0;

  /** With `tls`, the platform answers HTTPS (and WSS) only. */
  constructor(private readonly tls?: { key: string; cert: string }) {}

  get url(): string {
    return `${this.tls ? 'https' : 'http'}://127.0.0.1:${this.port}`;
  }

  get current(): Connection | undefined {
    return this.connections.filter((c) => !c.closed).at(-1);
  }

  /** Everything the recorder sent on every connection, in order. */
  all(type?: FromRecorder['type']): Received[] {
    return this.connections.flatMap((c) => c.received).filter((r) => !type || r.message.type === type);
  }

  /** Listens (again, on the same port when it listened before: the platform coming back). */
  async start(): Promise<void> {
    const app = (this.tls ? Fastify({ logger: false, https: this.tls }) : Fastify({ logger: false })) as FastifyInstance;
    await app.register(websocket, { options: { maxPayload: 32 * 1024 * 1024 } });
    app.post(PAIR_PATH, async (req, reply) => {
      const code = (req.body as { code?: string } | null)?.code;
      if (code !== CODE || this.codeUsed) return reply.code(404).send({ code: 'NOT_FOUND', message: 'No such pairing code, or it was used or has expired' });
      this.codeUsed = true;
      this.pairings++;
      return { link_id: 'link-1', project_exid: 'project-1', credential: CREDENTIAL };
    });
    app.get(CONNECT_PATH, { websocket: true }, (socket, req) => {
      const conn: Connection = { authorization: req.headers.authorization, protocol: socket.protocol, received: [], socket, closed: null };
      this.connections.push(conn);
      socket.on('close', (code) => {
        conn.closed = { code };
      });
      if (req.headers.authorization !== `Bearer ${CREDENTIAL}`) {
        socket.close(4403, 'unknown credential');
        return;
      }
      socket.on('message', (data: Buffer, isBinary: boolean) => {
        const decoded = decodeFromRecorder(isBinary ? data : data.toString('utf8'));
        if (!decoded) {
          socket.close(4400, 'protocol error');
          return;
        }
        const r = { message: decoded.message, payload: decoded.payload ? Buffer.from(decoded.payload) : null };
        conn.received.push(r);
        const m = decoded.message;
        if (this.silent) return;
        if (m.type === 'ping') this.send({ type: 'pong', at: new Date().toISOString() }, conn);
        if ((m.type === 'frame' || m.type === 'event') && this.acking) this.send({ type: 'ack', seq: m.seq }, conn);
        if (m.type === 'reply') this.replies.get(m.req)?.(r);
      });
      this.send({ type: 'welcome', link_id: 'link-1', project_exid: 'project-1' }, conn);
      this.send({ type: 'schedules', schedules: this.schedules }, conn);
    });
    await app.listen({ host: '127.0.0.1', port: this.port });
    this.port = (app.server.address() as { port: number }).port;
    this.app = app;
  }

  send(message: FromPlatform, conn = this.current): void {
    conn?.socket.send(encode(message));
  }

  /** Asks the recorder for something and waits for its reply. */
  request(what: 'snapshot' | 'live_playlist' | 'live_segment', deviceId: string, name?: string): Promise<Received> {
    const req = this.nextReq++;
    const reply = new Promise<Received>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no reply to ${what}`)), 30_000);
      this.replies.set(req, (r) => {
        clearTimeout(timer);
        resolve(r);
      });
    });
    this.send({ type: 'request', req, what, device_id: deviceId, ...(name ? { name } : {}) });
    return reply;
  }

  /** Goes away: every connection is cut and nothing listens until `start` again. */
  async stop(): Promise<void> {
    for (const c of this.connections) if (!c.closed) c.socket.terminate();
    await this.app?.close();
    this.app = null;
  }
}
