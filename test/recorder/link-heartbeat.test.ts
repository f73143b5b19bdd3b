// The site link's heartbeats: the recorder pings, and a link on which the platform has gone silent
// (the TCP connection still open, as when a 4G router drops a route) is dropped after the silence bound
// (OVERLOOK_RECORDER_LINK_SILENCE_SECONDS, 3 s here) and opened again.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloseCode } from '../../src/lib/site-link/protocol.js';
import { CODE, FakePlatform } from '../helpers/fake-site-platform.js';
import { serveRecorder, type ServedRecorder } from '../helpers/linked-recorder.js';
import { eventually } from '../helpers/recorder.js';

const platform = new FakePlatform();
const SILENCE_MS = 3000;
let dir: string;
let r: ServedRecorder;

beforeAll(async () => {
  await platform.start();
  dir = mkdtempSync(join(tmpdir(), 'overlook-link-heartbeat-'));
  r = await serveRecorder(dir, { OVERLOOK_RECORDER_LINK_SILENCE_SECONDS: String(SILENCE_MS / 1000) });
});
afterAll(async () => {
  await r?.running.close();
  await platform.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('heartbeats', () => {
  it('pings, drops a silent link after its silence bound and connects again', async () => {
    const res = await r.running.app.inject({ method: 'POST', url: '/api/link', headers: r.admin, payload: { platform_url: platform.url, code: CODE } });
    expect(res.statusCode, res.body).toBe(200);
    const first = await eventually(async () => platform.current, 10_000, 'a connection');
    platform.silent = true;
    await eventually(async () => first.closed !== null, SILENCE_MS + 10_000, 'the silent link dropped');
    expect(first.closed?.code).toBe(CloseCode.SILENT);
    expect(first.received.filter((m) => m.message.type === 'ping').length).toBeGreaterThanOrEqual(2);
    platform.silent = false;
    await eventually(async () => platform.current !== first && platform.current, 30_000, 'a new connection');
    await eventually(async () => (await r.link()).state === 'connected', 10_000, 'connected again');
  });
});
