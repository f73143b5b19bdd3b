// `GET /ready` (docs/deploy.md, Behind a load balancer): 200 while the database answers and every
// migration is applied; 503 with Retry-After and our error body when a migration is missing.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestPlatform, type TestPlatform } from '../../helpers/platform.js';

let tp: TestPlatform;
beforeAll(async () => {
  tp = await buildTestPlatform();
});
afterAll(() => tp.close());

describe('GET /ready', () => {
  it('answers 200 without a credential while the database is migrated', async () => {
    const res = await tp.app.inject({ method: 'GET', url: '/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ready' });
  });

  it('answers 503 with Retry-After when a migration of this version is not applied', async () => {
    const db = tp.t.db.kysely;
    const last = await sql<{ name: string; timestamp: string }>`select name, timestamp from kysely_migration order by name desc limit 1`.execute(db);
    const row = last.rows[0];
    if (!row) throw new Error('no migration recorded');
    await sql`delete from kysely_migration where name = ${row.name}`.execute(db);
    try {
      const res = await tp.app.inject({ method: 'GET', url: '/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBeDefined();
      expect(res.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: expect.stringMatching(/overlook migrate/) });
    } finally {
      await sql`insert into kysely_migration (name, timestamp) values (${row.name}, ${row.timestamp})`.execute(db);
    }
    expect((await tp.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
  });
});
