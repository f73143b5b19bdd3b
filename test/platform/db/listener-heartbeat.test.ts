// The listening session's heartbeat (docs/deploy.md, Cache invalidation across nodes): with its
// PostgreSQL backend stopped (SIGSTOP: the session hangs without closing), the bus forgets every cached
// fact within 2 s and listens again on a new session.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { CacheRegistry, cacheChannel, InvalidationBus } from '../../../src/lib/cache/index.js';
import { testDialect } from '../../helpers/db.js';

const PG_URL = process.env.OVERLOOK_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function listenerPids(name: string): Promise<number[]> {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    const { rows } = await c.query<{ pid: number }>('select pid from pg_stat_activity where application_name = $1', [name]);
    return rows.map((r) => r.pid);
  } finally {
    await c.end();
  }
}

async function until(check: () => boolean | Promise<boolean>, what: string, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(testDialect() !== 'postgres')('cache invalidation listener heartbeat', () => {
  it('a stopped backend is noticed within 2 s: everything forgotten, a new session listens', async () => {
    const name = `ovl-hb-${randomBytes(4).toString('hex')}`;
    const registry = new CacheRegistry();
    const forgetAll = vi.spyOn(registry, 'forgetAll');
    const warn = vi.fn();
    const bus = new InvalidationBus({
      registry,
      connectionString: PG_URL,
      applicationName: name,
      channel: cacheChannel(`hb_${randomBytes(4).toString('hex')}`),
      publish: async () => {},
      log: { warn, info: () => {}, error: () => {} } as never,
    });
    await bus.start();
    let stopped: number | undefined;
    try {
      await until(async () => (await listenerPids(name)).length === 1, 'the listener session', 10_000);
      const [pid] = await listenerPids(name);
      const before = forgetAll.mock.calls.length;
      process.kill(pid!, 'SIGSTOP');
      stopped = pid;
      await until(() => forgetAll.mock.calls.length > before, 'forgetting on a hung session', 2000);
      expect(String(warn.mock.calls.at(-1)?.[0]?.err?.message ?? '')).toMatch(/heartbeat/);
      await until(async () => (await listenerPids(name)).some((p) => p !== pid), 'a new listening session', 10_000);
    } finally {
      if (stopped) process.kill(stopped, 'SIGCONT');
      await bus.close();
    }
  }, 30_000);
});
