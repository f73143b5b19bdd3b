// The outbox (src/platform/outbox/outbox.ts), on SQLite and PostgreSQL: an event recorded in a
// transaction is delivered once per target after the commit and never after a rollback; a failing
// delivery is retried with doubling delays, then given up; two nodes on one database deliver each
// event once; a claim left by a halted node is taken over when it runs out; finished events are pruned.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../../src/lib/db/transaction.js';
import type { Channel, StoredEvent } from '../../../src/platform/outbox/index.js';
import { Outbox, type OutboxOptions, retryDelayMs } from '../../../src/platform/outbox/outbox.js';
import { OutboxWakeup, outboxChannel } from '../../../src/platform/outbox/outbox-wakeup.js';
import { createTestDb, type TestDb } from '../../helpers/db.js';

let t: TestDb;
const stops: (() => Promise<void>)[] = [];

const until = async (what: string, ok: () => boolean | Promise<boolean>, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

async function node(opts: Partial<OutboxOptions> = {}, channels: Channel[] = []): Promise<Outbox> {
  const notifyChannel = outboxChannel(t.pgSchema);
  const o = new Outbox(t.db, {
    leaseMs: 5000,
    pollMs: 100,
    retryFirstMs: 50,
    retryMaxMs: 400,
    giveUpMs: 60_000,
    keepMs: 30 * 86_400_000,
    notifyChannel,
    ...opts,
  });
  for (const c of channels) o.addChannel(c);
  o.start();
  const w = t.db.dialect === 'postgres' && t.databaseUrl ? new OutboxWakeup(t.databaseUrl, notifyChannel, () => o.wake(), console) : null;
  await w?.start();
  stops.push(async () => {
    await w?.close();
    await o.stop();
  });
  return o;
}

/** A channel that records what it was given, failing the first `fail` attempts per target. */
function recorder(name: string, targets: string[], fail = 0) {
  const got: { event: StoredEvent; target: string; at: number }[] = [];
  const tries = new Map<string, number>();
  const channel: Channel = {
    name,
    targets: async () => targets,
    deliver: async (event, target) => {
      const n = (tries.get(`${event.id}/${target}`) ?? 0) + 1;
      tries.set(`${event.id}/${target}`, n);
      if (n <= fail) throw new Error(`refused ${n}`);
      got.push({ event, target, at: Date.now() });
    },
  };
  return { channel, got, tries };
}

beforeAll(async () => {
  t = await createTestDb();
});
// A test's nodes stop when it ends, even when it fails: one left running, with other channels, would
// claim the next test's events and deliveries.
afterEach(async () => {
  for (const s of stops.splice(0)) await s();
});
afterAll(() => t.cleanup());

describe('outbox', () => {
  it('waits 10 s before the first retry, doubling up to an hour (the defaults)', () => {
    const opts = { retryFirstMs: 10_000, retryMaxMs: 3_600_000 };
    expect([1, 2, 3, 4, 9, 10, 30].map((n) => retryDelayMs(n, opts))).toEqual([10_000, 20_000, 40_000, 80_000, 2_560_000, 3_600_000, 3_600_000]);
  });

  it('delivers an event recorded in a committed transaction once per target; a rolled back one never', async () => {
    const r = recorder('test-a', ['x', 'y']);
    const o = await node({}, [r.channel]);
    await inTransaction(t.db, (tx) => o.record(tx, { type: 'comment.created', projectExid: 'p1', cameraExid: 'c1', data: { n: 1 } }));
    await expect(
      inTransaction(t.db, async (tx) => {
        await o.record(tx, { type: 'comment.created', projectExid: 'p1', data: { n: 2 } });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await until('both targets', () => r.got.length === 2);
    expect(r.got.map((g) => g.target).sort()).toEqual(['x', 'y']);
    expect(r.got[0]!.event).toMatchObject({ type: 'comment.created', projectExid: 'p1', cameraExid: 'c1', data: { n: 1 } });
    // A third event, then nothing more arrives for the rolled back one.
    await inTransaction(t.db, (tx) => o.record(tx, { type: 'member.added', projectExid: 'p1', data: { n: 3 } }));
    await until('the third event', () => r.got.length === 4);
    expect(r.got.map((g) => g.event.data.n)).not.toContain(2);
    await o.stop();
  });

  it('retries a failing delivery with doubling delays until it succeeds', async () => {
    const r = recorder('test-b', ['x'], 3);
    const o = await node({}, [r.channel]);
    await o.record(t.db, { type: 'camera.status_changed', projectExid: 'p1', data: {} });
    await until('the delivery', () => r.got.length === 1);
    // The channel has it; the outbox writes the outcome right after.
    await until('the delivery recorded', async () => (await o.deliveriesTo('test-b', 'x', 10))[0]?.status === 'delivered');
    const log = await o.deliveriesTo('test-b', 'x', 10);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ status: 'delivered', attempts: 4, last_error: null });
    expect(r.tries.get(`${r.got[0]!.event.id}/x`)).toBe(4);
    await o.stop();
  });

  it('gives up when the next retry would come after the give-up time, and redelivers by hand', async () => {
    const r = recorder('test-c', ['x'], 1_000_000);
    const o = await node({ giveUpMs: 300 }, [r.channel]);
    await o.record(t.db, { type: 'camera.status_changed', projectExid: 'p1', data: {} });
    await until('given up', async () => (await o.deliveriesTo('test-c', 'x', 1))[0]?.status === 'failed');
    const [d] = await o.deliveriesTo('test-c', 'x', 1);
    expect(d!.attempts).toBeGreaterThanOrEqual(2);
    expect(d!.last_error).toMatch(/^refused/);
    const before = r.tries.get(`${d!.event_id}/x`)!;
    expect(await o.redeliver('test-c', 'x', d!.event_id)).toBe(true);
    await until('attempted again', () => r.tries.get(`${d!.event_id}/x`)! > before);
    expect(await o.redeliver('test-c', 'x', '00000000-0000-0000-0000-000000000000')).toBe(false);
    await o.stop();
  });

  it('two nodes on one database deliver each event once', async () => {
    const a = recorder('test-d', ['x']);
    const b = recorder('test-d', ['x']);
    const na = await node({}, [a.channel]);
    const nb = await node({}, [b.channel]);
    for (let i = 0; i < 60; i++) await (i % 2 ? na : nb).record(t.db, { type: 'anpr.plate_read', projectExid: 'p1', data: { i } });
    await until('every event', () => a.got.length + b.got.length >= 60);
    await new Promise((r) => setTimeout(r, 300)); // room for a duplicate to show up
    const ids = [...a.got, ...b.got].map((g) => g.event.data.i);
    expect(ids).toHaveLength(60);
    expect(new Set(ids).size).toBe(60);
    await na.stop();
    await nb.stop();
  });

  it('a delivery claimed by a node that stopped answering is taken over when the claim runs out', async () => {
    let hang: (() => void) | null = null;
    const stuck: Channel = { name: 'test-e', targets: async () => ['x'], deliver: () => new Promise<void>((r) => (hang = r)) };
    stops.unshift(async () => hang?.());
    const dead = await node({ leaseMs: 300 }, [stuck]);
    await dead.record(t.db, { type: 'media_item.ready', projectExid: 'p1', data: {} });
    await until('claimed by the first node', async () => hang !== null);
    const r = recorder('test-e', ['x']);
    const live = await node({ leaseMs: 300 }, [r.channel]);
    await until('taken over', () => r.got.length === 1);
    hang!();
    await until('settled', async () => (await live.deliveriesTo('test-e', 'x', 1))[0]?.status === 'delivered');
  });

  it('prunes finished events and their deliveries past the keeping time, with the channels’ logs; a pending one stays', async () => {
    const pruned: string[] = [];
    const done = { ...recorder('test-f', ['x']).channel, prune: async (before: string) => void pruned.push(before) };
    // Never delivered: its delivery stays pending, retried until the give-up time.
    const stuck: Channel = { name: 'test-g', targets: async (e) => (e.data.stuck ? ['x'] : []), deliver: () => Promise.reject(new Error('down')) };
    const keepMs = 60_000;
    const o = await node({ keepMs, giveUpMs: 3_600_000, retryFirstMs: 60_000 }, [done, stuck]);
    await o.record(t.db, { type: 'comment.created', projectExid: 'p1', data: { stuck: false } });
    await o.record(t.db, { type: 'comment.created', projectExid: 'p1', data: { stuck: true } });
    const rows = async () => ({
      events: (await t.db.kysely.selectFrom('outbox_events').select(['id', 'data']).where('type', '=', 'comment.created').execute()).filter(
        (e) => 'stuck' in JSON.parse(e.data),
      ),
      deliveries: await t.db.kysely
        .selectFrom('outbox_deliveries')
        .select(['channel', 'status'])
        .where('channel', 'in', ['test-f', 'test-g'])
        .orderBy('channel')
        .execute(),
    });
    await until('delivered and attempted', async () => {
      const { deliveries } = await rows();
      return deliveries.filter((d) => d.channel === 'test-f' && d.status === 'delivered').length === 2 && deliveries.some((d) => d.channel === 'test-g');
    });
    pruned.splice(0);

    // Within the keeping time: nothing goes.
    await o.prune();
    expect((await rows()).events).toHaveLength(2);
    expect((await rows()).deliveries).toHaveLength(3);
    expect(pruned).toHaveLength(1);

    // Past it: the finished event and the finished deliveries go; the event with a pending delivery stays.
    const later = Date.now() + keepMs + 1000;
    await o.prune(later);
    const left = await rows();
    expect(left.deliveries).toEqual([{ channel: 'test-g', status: 'pending' }]);
    expect(left.events.map((e) => JSON.parse(e.data))).toEqual([{ stuck: true }]);
    expect(pruned[1]).toBe(new Date(later - keepMs).toISOString());
    await o.stop();
  });
});
