// A real IP camera: a JPEG snapshot over HTTP (digest or basic authentication, urllib), or, without a
// snapshot URL, the snapshot URI its ONVIF media service gives; PTZ and read-only ONVIF calls through
// the onvif library; failing both URLs, a TCP connection to its RTSP port for health.
import { connect } from 'node:net';
import type { Dispatcher } from 'undici';
import { isOutboundRefused, type OutboundGuard, REFUSED_BY_POLICY } from '../../../lib/net/outbound-guard.js';
import type { CameraConnection, ConnectionDetails, HealthResult, OnvifGateway, OnvifService, Snapshot } from './camera-connection.js';
import { CameraAnswerError, CameraTimeoutError, upstreamError } from '../camera-errors.js';
import { fetchSnapshot } from './http-snapshot.js';
import type { OnvifClient } from '../onvif/onvif-client.js';
import { OnvifPtz } from '../ptz/onvif-ptz.js';
import type { PtzControl } from '../ptz/ptz-control.js';

export interface IpCameraOptions {
  /** Checks every address before it is connected to; the dispatcher is its HTTP side. */
  guard: OutboundGuard;
  dispatcher: Dispatcher;
  timeoutMs: number;
  /** An ONVIF session for this camera (the connections cache shares it between requests). */
  onvifSession: () => Promise<OnvifClient>;
  /** Forgets the shared session after a failed exchange (the camera may have rebooted or changed). */
  dropOnvifSession: () => void;
}

export class IpCamera implements CameraConnection {
  constructor(
    private readonly details: ConnectionDetails,
    private readonly opts: IpCameraOptions,
  ) {}

  async snapshot(): Promise<Snapshot> {
    const { snapshot_url, onvif_url, username, password } = this.details;
    let url = snapshot_url;
    if (!url && onvif_url) {
      try {
        url = await (await this.opts.onvifSession()).snapshotUri();
      } catch (err) {
        this.opts.dropOnvifSession();
        throw err;
      }
    }
    if (!url) throw new Error('no snapshot URL or ONVIF address configured');
    const jpeg = await fetchSnapshot({ url, username, password, timeoutMs: this.opts.timeoutMs, dispatcher: this.opts.dispatcher });
    return { jpeg, takenAt: new Date() };
  }

  ptz(): PtzControl | null {
    return this.details.onvif_url ? new OnvifPtz(this.opts.onvifSession, this.opts.dropOnvifSession) : null;
  }

  onvif(): OnvifGateway | null {
    if (!this.details.onvif_url) return null;
    const { onvifSession: session, dropOnvifSession: drop } = this.opts;
    return {
      async services() {
        try {
          return (await session()).services();
        } catch (err) {
          drop();
          throw upstreamError(err, 'answer ONVIF');
        }
      },
      async call(service: OnvifService, operation: string, args: Record<string, string>) {
        try {
          return await (await session()).raw(service, operation, args);
        } catch (err) {
          // A SOAP fault is an answer; anything else may mean a stale session.
          if (!(err instanceof CameraAnswerError)) drop();
          throw upstreamError(err, `answer ${operation}`);
        }
      },
    };
  }

  private async rtspReachable(): Promise<void> {
    const url = new URL(this.details.rtsp_url!);
    const port = Number(url.port || (url.protocol === 'rtsps:' ? 322 : 554));
    const pinned = await this.opts.guard.check(url.hostname, port);
    return new Promise((resolve, reject) => {
      const socket = connect({ host: pinned.address, port, timeout: this.opts.timeoutMs });
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('timeout', () => {
        socket.destroy();
        reject(new CameraTimeoutError(`RTSP port ${url.hostname}:${port} did not answer`));
      });
      socket.once('error', (e) => reject(new Error(`RTSP port ${url.hostname}:${port}: ${e.message}`)));
    });
  }

  /** Online when the camera really answers: a decodable-looking JPEG, and its ONVIF service when configured. */
  async check(): Promise<HealthResult> {
    const started = performance.now();
    const result = (status: 'online' | 'offline', reason: string | null): HealthResult => ({
      status,
      checked_at: new Date().toISOString(),
      latency_ms: Math.round(performance.now() - started),
      reason,
      battery: null,
    });
    const { snapshot_url, onvif_url, rtsp_url } = this.details;
    let step = 'snapshot';
    try {
      if (snapshot_url || onvif_url) {
        await this.snapshot();
        if (onvif_url && snapshot_url) {
          step = 'ONVIF';
          await this.opts.onvifSession();
        }
      } else if (rtsp_url) await this.rtspReachable();
      else return result('offline', 'no snapshot, ONVIF or RTSP address configured');
      return result('online', null);
    } catch (err) {
      const e = err as Error;
      // Nothing about what answers (or not) at a refused address is told.
      if (isOutboundRefused(e)) return result('offline', REFUSED_BY_POLICY);
      const timedOut = e instanceof CameraTimeoutError || e.name === 'HttpClientRequestTimeoutError' || e.name === 'TimeoutError';
      return result('offline', `${step}: ${timedOut ? 'the camera did not answer in time' : e.message}`);
    }
  }
}
