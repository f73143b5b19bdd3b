// A real IP camera: a JPEG snapshot over HTTP (basic authentication when credentials are set), or
// failing a snapshot URL, a TCP connection to its RTSP port. Digest authentication and ONVIF arrive
// with the camera features.
import { connect } from 'node:net';
import type { CameraConnection, ConnectionDetails, HealthResult, Snapshot } from './camera-connection.js';

const TIMEOUT_MS = 5000;

export class IpCamera implements CameraConnection {
  constructor(private readonly details: ConnectionDetails) {}

  private headers(): Record<string, string> {
    const { username, password } = this.details;
    return username ? { authorization: `Basic ${Buffer.from(`${username}:${password ?? ''}`).toString('base64')}` } : {};
  }

  async snapshot(): Promise<Snapshot> {
    if (!this.details.snapshot_url) throw new Error('no snapshot URL configured');
    const res = await fetch(this.details.snapshot_url, { headers: this.headers(), signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'error' });
    if (!res.ok) throw new Error(`snapshot URL answered HTTP ${res.status}`);
    const type = res.headers.get('content-type') ?? '';
    if (!type.startsWith('image/')) throw new Error(`snapshot URL answered ${type || 'no content type'}, not an image`);
    const jpeg = Buffer.from(await res.arrayBuffer());
    return { jpeg, takenAt: new Date() };
  }

  private rtspReachable(): Promise<void> {
    const url = new URL(this.details.rtsp_url!);
    const port = Number(url.port || 554);
    return new Promise((resolve, reject) => {
      const socket = connect({ host: url.hostname, port, timeout: TIMEOUT_MS });
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('timeout', () => {
        socket.destroy();
        reject(new Error(`RTSP port ${url.hostname}:${port} did not answer`));
      });
      socket.once('error', (e) => reject(new Error(`RTSP port ${url.hostname}:${port}: ${e.message}`)));
    });
  }

  async check(): Promise<HealthResult> {
    const started = performance.now();
    const result = (status: 'online' | 'offline', reason: string | null): HealthResult => ({
      status,
      checked_at: new Date().toISOString(),
      latency_ms: Math.round(performance.now() - started),
      reason,
      battery: null,
    });
    try {
      if (this.details.snapshot_url) await this.snapshot();
      else if (this.details.rtsp_url) await this.rtspReachable();
      else return result('offline', 'no snapshot or RTSP URL configured');
      return result('online', null);
    } catch (err) {
      const e = err as Error;
      return result('offline', e.name === 'TimeoutError' ? 'the camera did not answer in time' : e.message);
    }
  }
}
