// A site recorder as the tests need one: a real WebSocket client speaking the site link's protocol to a
// listening platform, that records what it is told and answers the platform's requests with `answer`.
import { WebSocket } from 'undici';
import {
  CONNECT_PATH,
  decodeFromPlatform,
  encode,
  type FromPlatform,
  type FromRecorder,
  type SharedDevice,
  SUBPROTOCOL,
} from '../../../src/lib/site-link/protocol.js';

type Request = Extract<FromPlatform, { type: 'request' }>;
export type Answer = (req: Request) => { status: number; content_type?: string; body?: Buffer; message?: string } | null;

export async function waitFor<T>(what: string, check: () => T | undefined | null | false | Promise<T | undefined | null | false>, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export class FakeRecorder {
  readonly received: FromPlatform[] = [];
  readonly requests: Request[] = [];
  closeCode: number | null = null;
  opened = false;
  answer: Answer = () => ({ status: 404, message: 'nothing here' });
  private readonly ws: WebSocket;

  constructor(baseUrl: string, credential: string | null, protocol = SUBPROTOCOL) {
    const headers: Record<string, string> = credential ? { authorization: `Bearer ${credential}` } : {};
    this.ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}${CONNECT_PATH}`, { protocols: [protocol], headers });
    this.ws.binaryType = 'arraybuffer';
    this.ws.addEventListener('open', () => {
      this.opened = true;
    });
    this.ws.addEventListener('close', (e) => {
      this.closeCode = e.code;
    });
    this.ws.addEventListener('message', (e) => {
      const data = typeof e.data === 'string' ? e.data : Buffer.from(e.data as ArrayBuffer);
      const decoded = decodeFromPlatform(data);
      if (!decoded) throw new Error(`the platform sent something outside the protocol: ${String(e.data)}`);
      const m = decoded.message;
      this.received.push(m);
      if (m.type === 'ping') this.send({ type: 'pong', at: new Date().toISOString() });
      if (m.type === 'request') {
        this.requests.push(m);
        const a = this.answer(m);
        if (a) this.send({ type: 'reply', req: m.req, status: a.status, content_type: a.content_type, message: a.message }, a.body);
      }
    });
  }

  send(message: FromRecorder, payload?: Buffer): void {
    this.ws.send(encode(message, payload));
  }

  devices(devices: SharedDevice[]): void {
    this.send({ type: 'devices', recorder_version: 'test-1', devices });
  }

  frame(seq: number, deviceId: string, takenAt: string, jpeg: Buffer): void {
    this.send({ type: 'frame', seq, device_id: deviceId, taken_at: takenAt }, jpeg);
  }

  acked(seq: number): boolean {
    return this.received.some((m) => m.type === 'ack' && m.seq >= seq);
  }

  last<T extends FromPlatform['type']>(type: T): Extract<FromPlatform, { type: T }> | undefined {
    return this.received.filter((m): m is Extract<FromPlatform, { type: T }> => m.type === type).at(-1);
  }

  count(type: FromPlatform['type']): number {
    return this.received.filter((m) => m.type === type).length;
  }

  close(): void {
    this.ws.close();
  }
}
