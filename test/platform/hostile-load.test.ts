// Hostile load on a listening main API (docs/security.md, "Slow clients" and "Live encoders"): a bounded
// slowloris from one address and a flood of live-stream starts leave /health answering for everyone else.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestPlatform, type Person, type TestPlatform } from '../helpers/platform.js';

let tp: TestPlatform;
let base: string;
let port: number;
beforeAll(async () => {
  tp = await buildTestPlatform({
    OVERLOOK_HEADERS_TIMEOUT_SECONDS: '1',
    OVERLOOK_MAX_CONNECTIONS_PER_ADDRESS: '40',
    OVERLOOK_LIVE_STREAMS_PER_NODE: '3',
    OVERLOOK_LIVE_STREAMS_PER_PERSON: '2',
  });
  base = await tp.app.listen({ host: '127.0.0.1', port: 0 });
  port = Number(new URL(base).port);
});
afterAll(() => tp.close());

const health = async () => (await fetch(`${base}/health`)).status;

describe('a bounded slowloris', () => {
  it('200 trickling connections from one address: /health answers throughout, and the slow ones are cut', async () => {
    const sockets: Socket[] = [];
    const timers: NodeJS.Timeout[] = [];
    for (let i = 0; i < 200; i++) {
      const s = connect({ host: '127.0.0.1', port, localAddress: '127.0.0.2' });
      s.on('error', () => {});
      s.on('connect', () => {
        s.write('GET /health HTTP/1.1\r\nHost: x\r\n');
        timers.push(setInterval(() => s.writable && s.write(`X-Slow-${i}: 1\r\n`), 200));
      });
      sockets.push(s);
    }
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) {
        statuses.push(await health());
        await new Promise((r) => setTimeout(r, 150));
      }
      expect(statuses.every((s) => s === 200)).toBe(true);
      // The headers deadline (1 s) and the per-address cap close every slow connection.
      const deadline = Date.now() + 5000;
      while (sockets.some((s) => !s.destroyed && !s.readableEnded) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(sockets.filter((s) => !s.destroyed && !s.readableEnded)).toHaveLength(0);
    } finally {
      for (const t of timers) clearInterval(t);
      for (const s of sockets) s.destroy();
    }
  });
});

describe('a flood of live-stream starts', () => {
  let owner: Person;
  let others: Person[];
  const cameras: string[] = [];
  beforeAll(async () => {
    owner = await tp.person('flooder');
    others = [await tp.person('second'), await tp.person('third')];
    const project = await tp.project(owner, 'Flood site');
    for (const p of others) await tp.addMember(owner, project.exid, p, 'viewer');
    for (let i = 0; i < 6; i++) cameras.push((await tp.camera(owner, project.exid, `Cam ${i}`)).exid);
  });

  const startLive = async (who: Person, exid: string) => {
    const res = await fetch(`${base}/v2/cameras/${exid}/hls?format=json`, { headers: who.auth });
    const { playlist_url } = (await res.json()) as { playlist_url: string };
    const u = new URL(playlist_url);
    const media = await fetch(`${base}${u.pathname}${u.search}`);
    return { status: media.status, retryAfter: media.headers.get('retry-after'), code: media.ok ? null : ((await media.json()) as { code: string }).code };
  };

  it('one person over their limit gets 429, the node over its limit 503, both with Retry-After; /health answers', async () => {
    const mine = await Promise.all(cameras.map((exid) => startLive(owner, exid)));
    expect(mine.filter((r) => r.status === 200)).toHaveLength(2);
    expect(mine.filter((r) => r.status === 429).every((r) => r.code === 'TOO_MANY_REQUESTS' && r.retryAfter)).toBe(true);
    expect(await health()).toBe(200);

    const third = await startLive(others[0]!, cameras.find((_c, i) => mine[i]!.status !== 200)!);
    expect(third.status).toBe(200);
    const unstarted = cameras.filter((_c, i) => mine[i]!.status !== 200);
    const overNode = await startLive(others[1]!, unstarted[unstarted.length - 1]!);
    expect(overNode).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    expect(overNode.retryAfter).toBeTruthy();
    // Watching a running stream is never refused.
    const started = cameras[mine.findIndex((r) => r.status === 200)]!;
    expect((await startLive(others[1]!, started)).status).toBe(200);
    expect(await health()).toBe(200);
  });
});
