// A camera for the picture-check tests: it answers every snapshot with the frame it was last given, and
// frames are stored through "capture now" a minute apart on a faked clock (Date only), starting at the
// next whole hour an hour ahead of the real time so sessions stay valid. The test restores real timers
// (vi.useRealTimers) after each test.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, vi } from 'vitest';
import { servicesOf } from '../../../src/platform/plugins/feature.js';
import type { Person, TestPlatform } from '../../helpers/platform.js';
import { frame, type FrameOptions } from './synthetic-frames.js';

export class FrameCamera {
  private picture: Buffer = Buffer.alloc(0);
  private readonly server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/jpeg' }).end(this.picture));
  private readonly t0 = Math.ceil((Date.now() + 3_600_000) / 3_600_000) * 3_600_000;
  private minute = 0;
  /** Where the platform fetches the camera's snapshot (on 127.0.0.1: opt that network in). */
  snapshotUrl = '';

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.snapshotUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/snapshot.jpg`;
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server.close(resolve));
  }

  /** Moves the faked clock to the next minute. */
  tick(): void {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(this.t0 + this.minute++ * 60_000);
  }

  /** Stores one frame per option, a minute apart, through `who`'s "capture now", and waits for their analysis. */
  async store(tp: TestPlatform, who: Person, exid: string, frames: FrameOptions[]): Promise<string[]> {
    const times: string[] = [];
    for (const o of frames) {
      this.tick();
      this.picture = await frame(o);
      const res = await tp.app.inject({ method: 'POST', url: `/v2/cameras/${exid}/snapshots`, headers: who.auth, payload: {} });
      expect(res.statusCode, res.body).toBe(201);
      times.push(res.json().created_at);
    }
    await servicesOf(tp.app).pictureChecks.idle();
    return times;
  }
}
