// The video of each running device as RTP, for WebRTC viewers. The device's ffmpeg sends RTP
// (H.264, parameter sets before every keyframe) to a UDP port on 127.0.0.1 that this class binds,
// one per device stream, kept across ffmpeg restarts; every packet is handed to each subscriber
// as it comes, untouched (no decoding, no re-encoding).
import { createSocket, type Socket } from 'node:dgram';

export type RtpListener = (packet: Buffer) => void;

interface Feed {
  socket: Socket;
  port: number;
  listeners: Set<RtpListener>;
  /** When the last packet came (ms since 1970), 0 before the first. */
  lastPacketAt: number;
}

export class RtpFeeds {
  private readonly feeds = new Map<string, Promise<Feed>>();

  private key(deviceId: string, stream: string): string {
    return `${deviceId}/${stream}`;
  }

  /** The UDP port that ffmpeg should send this device stream's RTP to (bound on first use). */
  async open(deviceId: string, stream: string): Promise<number> {
    const k = this.key(deviceId, stream);
    let feed = this.feeds.get(k);
    if (!feed) {
      feed = new Promise<Feed>((resolve, reject) => {
        const socket = createSocket('udp4');
        const f: Feed = { socket, port: 0, listeners: new Set(), lastPacketAt: 0 };
        socket.on('message', (packet) => {
          f.lastPacketAt = Date.now();
          for (const l of f.listeners) l(packet);
        });
        socket.once('error', reject);
        // Only the local ffmpeg sends here; nothing outside the machine can reach it.
        socket.bind(0, '127.0.0.1', () => {
          f.port = socket.address().port;
          resolve(f);
        });
      });
      this.feeds.set(k, feed);
    }
    return (await feed).port;
  }

  /** Whether packets arrived within `withinMs`: the device's ffmpeg is running and sending. */
  async live(deviceId: string, stream: string, withinMs = 10_000): Promise<boolean> {
    const feed = await this.feeds.get(this.key(deviceId, stream));
    return feed !== undefined && Date.now() - feed.lastPacketAt < withinMs;
  }

  /** Calls `listener` with every packet until the returned function is called. */
  async subscribe(deviceId: string, stream: string, listener: RtpListener): Promise<() => void> {
    const feed = await this.feeds.get(this.key(deviceId, stream));
    if (!feed) return () => {};
    feed.listeners.add(listener);
    return () => feed.listeners.delete(listener);
  }

  async close(deviceId: string, stream: string): Promise<void> {
    const k = this.key(deviceId, stream);
    const feed = this.feeds.get(k);
    this.feeds.delete(k);
    if (!feed) return;
    const f = await feed.catch(() => null);
    if (f) await new Promise<void>((resolve) => f.socket.close(() => resolve()));
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.feeds.keys()].map((k) => this.close(...(k.split('/') as [string, string]))));
  }
}
