// Leases on background work (src/platform/work/leases.ts), on SQLite and PostgreSQL: a lease is held by
// one node at a time, the holder keeps it by its heartbeat, another node takes it once it expires or is
// released, a halted node (as a killed one) renews and releases nothing, a node that lost a lease
// while it could not renew learns it at its next heartbeat, a node whose clock is off by an hour
// neither steals nor loses a lease (expiry is the database's clock), and expired rows are swept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkLeases, type WorkLeasesOptions } from '../../../src/platform/work/leases.js';
import { createTestDb, type TestDb } from '../../helpers/db.js';
import { eventually } from '../../helpers/eventually.js';

let t: TestDb;
const nodes: WorkLeases[] = [];
const node = (leaseMs: number, opts: WorkLeasesOptions = {}) => {
  const n = new WorkLeases(t.db, { leaseMs, ...opts });
  nodes.push(n);
  return n;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => {
  for (const n of nodes) await n.stop();
  await t.cleanup();
});

describe('work leases', () => {
  it('each node has its own random id', () => {
    expect(node(1000).nodeId).not.toBe(node(1000).nodeId);
  });

  it('one holder at a time; released, another node takes it at once', async () => {
    const a = node(10_000);
    const b = node(10_000);
    expect(await a.acquire('job:1')).toBe(true);
    expect(await a.acquire('job:1')).toBe(true); // ours: kept
    expect(await b.acquire('job:1')).toBe(false);
    expect(a.holds('job:1')).toBe(true);
    expect(b.holds('job:1')).toBe(false);
    expect(await a.live('job:')).toEqual(new Map([['job:1', a.nodeId]]));
    await a.release('job:1');
    expect(a.holds('job:1')).toBe(false);
    expect(await b.acquire('job:1')).toBe(true);
    expect(await a.live('job:')).toEqual(new Map([['job:1', b.nodeId]]));
  });

  it('the heartbeat keeps a lease past its term; a halted node loses it when it expires', async () => {
    const a = node(300);
    const b = node(300);
    a.start();
    expect(await a.acquire('job:2')).toBe(true);
    await sleep(700);
    expect(a.holds('job:2')).toBe(true);
    expect(await b.acquire('job:2')).toBe(false);
    a.halt();
    expect(a.holds('job:2')).toBe(false);
    expect(await a.acquire('job:other')).toBe(false);
    expect(await b.acquire('job:2')).toBe(false); // not expired yet
    await sleep(400);
    expect(await b.acquire('job:2')).toBe(true);
    // The halted node released nothing on stop: the lease is still the taker's.
    await a.stop();
    expect((await b.live('job:')).get('job:2')).toBe(b.nodeId);
  });

  it('not surely held after a pause; the next heartbeat reports a lease another node took', async () => {
    const a = node(300);
    const b = node(300);
    const lost: string[] = [];
    a.onLost((n) => lost.push(n));
    expect(await a.acquire('job:3')).toBe(true);
    expect(await a.acquire('job:4')).toBe(true);
    await sleep(400); // no heartbeat: both expire
    expect(a.holds('job:3')).toBe(false);
    expect(await b.acquire('job:3')).toBe(true);
    a.start();
    await sleep(250);
    expect(lost).toEqual(['job:3']);
    expect(a.heldWith('job:')).toEqual(['job:4']); // expired but taken by nobody: renewed
    expect(a.holds('job:4')).toBe(true);
    expect((await a.live('job:')).get('job:4')).toBe(a.nodeId);
  });

  it('a clean stop releases every lease', async () => {
    const a = node(10_000);
    const b = node(10_000);
    a.start();
    await a.acquire('job:5');
    await a.acquire('job:6');
    await a.stop();
    expect(await b.acquire('job:5')).toBe(true);
    expect(await b.acquire('job:6')).toBe(true);
  });

  it('a node whose clock runs an hour ahead does not steal a live lease; one an hour behind keeps its own', async () => {
    const HOUR = 3_600_000;
    const a = node(10_000);
    const ahead = node(10_000, { now: () => Date.now() + HOUR });
    const behind = node(10_000, { now: () => Date.now() - HOUR });
    expect(await a.acquire('job:skew-1')).toBe(true);
    expect(await ahead.acquire('job:skew-1')).toBe(false);
    expect(await behind.acquire('job:skew-2')).toBe(true);
    expect(behind.holds('job:skew-2')).toBe(true);
    expect(await a.acquire('job:skew-2')).toBe(false);
    expect(await ahead.acquire('job:skew-2')).toBe(false);
    expect(await a.live('job:skew-')).toEqual(
      new Map([
        ['job:skew-1', a.nodeId],
        ['job:skew-2', behind.nodeId],
      ]),
    );
    expect(await ahead.holder('job:skew-1')).toEqual({ nodeId: a.nodeId, url: null });
  });

  it("a dead node's expired rows are swept by a live node's heartbeat, a lease term after they expired", async () => {
    const rows = async (prefix: string) =>
      (await t.db.kysely.selectFrom('work_leases').select('name').where('name', 'like', `${prefix}%`).execute()).map((r) => r.name).sort();
    const dead = node(200);
    expect(await dead.acquire('job:sweep-1')).toBe(true);
    expect(await dead.acquire('job:sweep-2')).toBe(true);
    dead.halt(); // killed: nothing released
    const live = node(200);
    expect(await live.acquire('job:sweep-mine')).toBe(true);
    live.start();
    // Expired after 200 ms, swept once 200 ms more have passed; the live node's own lease stays.
    await eventually(async () => (await rows('job:sweep-')).length === 1, "the dead node's rows swept", 5000);
    expect(await rows('job:sweep-')).toEqual(['job:sweep-mine']);
    expect(live.holds('job:sweep-mine')).toBe(true);
  });
});
