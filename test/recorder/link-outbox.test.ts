// The site link's durable outbox: at most MAX_UNACKED unacknowledged, frames kept while the platform
// stops acknowledging or goes away, through a recorder restart, then every owed one sent once, oldest
// first; orphan frame files cleaned at start; the byte cap dropping the oldest.
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_UNACKED } from '../../src/lib/site-link/protocol.js';
import { openRecorderDb } from '../../src/recorder/db/recorder-db.js';
import { Outbox } from '../../src/recorder/link/outbox.js';
import { CODE, FakePlatform } from '../helpers/fake-site-platform.js';
import { serveRecorder, type ServedRecorder } from '../helpers/linked-recorder.js';
import { eventually, makeTestVideo } from '../helpers/recorder.js';

const platform = new FakePlatform();
let dir: string;
let r: ServedRecorder;
let device: string;

const seqOf = (m: { message: unknown }) => (m.message as { seq: number }).seq;
const owed = () => r.running.db.kysely.selectFrom('link_outbox').select(['seq', 'kind']).orderBy('seq').execute();

beforeAll(async () => {
  await platform.start();
  dir = mkdtempSync(join(tmpdir(), 'overlook-link-outbox-'));
  r = await serveRecorder(dir);
  makeTestVideo(r.running.config.mediaDir);
  const res = await r.running.app.inject({
    method: 'POST',
    url: '/api/devices',
    headers: r.admin,
    payload: { name: 'Crane', type: 'file', stream_config: { path: join(r.running.config.mediaDir, 'source.mp4') } },
  });
  device = res.json().id;
  platform.acking = false;
  platform.schedules = [{ device_id: device, camera_exid: 'crane', frequency: 60, schedule: null, timezone: 'Europe/Dublin' }];
  const linked = await r.running.app.inject({ method: 'POST', url: '/api/link', headers: r.admin, payload: { platform_url: platform.url, code: CODE } });
  expect(linked.statusCode, linked.body).toBe(200);
});
afterAll(async () => {
  await r?.running.close();
  await platform.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the outbox', () => {
  it('sends at most MAX_UNACKED unacknowledged, oldest first', async () => {
    await eventually(async () => platform.current, 10_000, 'a connection');
    // Events are queued at once, beside the frames the schedule keeps adding.
    for (let i = 0; i < MAX_UNACKED + 4; i++) {
      const res = await r.running.app.inject({ method: 'POST', url: `/api/devices/${device}/events?type=gate`, headers: r.admin, payload: { n: i } });
      expect(res.statusCode).toBe(201);
    }
    await eventually(async () => (await owed()).length > MAX_UNACKED, 30_000, 'more owed than may be in flight');
    const sent = await eventually(async () => {
      const s = platform.current!.received.filter((m) => m.message.type === 'frame' || m.message.type === 'event');
      return s.length >= MAX_UNACKED && s;
    }, 30_000);
    expect(sent).toHaveLength(MAX_UNACKED);
    const rows = await owed();
    expect(sent.map(seqOf)).toEqual(rows.slice(0, MAX_UNACKED).map((row) => row.seq));
  });

  it('keeps taking frames while the platform is away and through a restart, then sends each owed one once, oldest first', async () => {
    await platform.stop();
    const before = (await owed()).length;
    await eventually(
      async () => (await owed()).filter((o) => o.kind === 'frame').length >= 3 && (await owed()).length >= before + 2,
      30_000,
      'frames taken offline',
    );
    const status = await r.link();
    expect(status.connected).toBe(false);
    expect(status.backlog.items).toBeGreaterThanOrEqual(before + 2);

    // A restart with frames owed; a frame file a crash left without its row is cleaned up.
    await r.running.close();
    const outboxDir = join(r.running.config.dataDir, 'link-outbox');
    const orphan = join(outboxDir, 'left-by-a-crash.jpg');
    writeFileSync(orphan, 'not sent');
    const owedAtRestart = (await openAndRead(r.running.config.dataDir)).map((o) => o.seq);
    r = await serveRecorder(dir);
    expect(existsSync(orphan)).toBe(false);
    const rows = await owed();
    expect(rows.slice(0, owedAtRestart.length).map((o) => o.seq)).toEqual(owedAtRestart);

    platform.acking = true;
    await platform.start();
    const last = owedAtRestart.at(-1)!;
    const conn = await eventually(
      async () => {
        const c = platform.current;
        return c?.received.some((m) => (m.message.type === 'frame' || m.message.type === 'event') && seqOf(m) >= last) && c;
      },
      60_000,
      'the backlog sent',
    );
    const seqs = conn.received.filter((m) => m.message.type === 'frame' || m.message.type === 'event').map(seqOf);
    // Every owed one, once, oldest first; frames taken since follow.
    expect(seqs.slice(0, owedAtRestart.length)).toEqual(owedAtRestart);
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    await eventually(async () => (await owed()).every((o) => o.seq > last), 10_000, 'acknowledged ones deleted');
    // Their files went with them.
    const files = readdirSync(outboxDir);
    const frameRows = await r.running.db.kysely.selectFrom('link_outbox').select('file').where('file', 'is not', null).execute();
    expect(files.length).toBeLessThanOrEqual(frameRows.length + 1);
  });
});

/** The outbox as stored, read while the recorder is stopped. */
async function openAndRead(dataDir: string) {
  const db = await openRecorderDb(dataDir);
  try {
    return await db.kysely.selectFrom('link_outbox').select('seq').orderBy('seq').execute();
  } finally {
    await db.close();
  }
}

describe('the backlog cap', () => {
  it('drops the oldest, with a log line, when the backlog is over its cap', async () => {
    const capDir = mkdtempSync(join(tmpdir(), 'overlook-link-cap-'));
    const db = await openRecorderDb(capDir);
    const lines: object[] = [];
    try {
      const outbox = new Outbox(db, join(capDir, 'link-outbox'), 2500, { warn: (o) => lines.push(o), info: () => {} });
      const jpeg = (n: number) => Buffer.concat([Buffer.from([0xff, 0xd8]), Buffer.alloc(998, n)]);
      const seqs: number[] = [];
      for (let i = 0; i < 5; i++) seqs.push(await outbox.addFrame('cam', new Date(Date.UTC(2026, 10, 28, 7, 0, i)), jpeg(i)));
      expect(await outbox.size()).toEqual({ items: 2, bytes: 2000 });
      const left = await outbox.after(0, 10);
      expect(left.map((i) => i.seq)).toEqual(seqs.slice(3));
      expect(left[0]!.jpeg![2]).toBe(3);
      expect(lines.map((l) => (l as { seq: number }).seq)).toEqual(seqs.slice(0, 3));
      expect(readdirSync(join(capDir, 'link-outbox'))).toHaveLength(2);
    } finally {
      await db.close();
      rmSync(capDir, { recursive: true, force: true });
    }
  });
});
