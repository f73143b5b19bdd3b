// The sign-in throttle across nodes: on PostgreSQL two apps on one database (each with a pool of its
// own, as two `overlook serve` processes) count the same failures and honour the same blocks; and
// whatever the database, a throttle that cannot read or write its counts fails closed.
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../src/lib/errors.js';
import { openDb } from '../../../src/lib/db/index.js';
import { buildPlatformApp } from '../../../src/platform/app.js';
import { LoginThrottle } from '../../../src/platform/auth/login-throttle.js';
import type { PlatformDatabase, PlatformDb } from '../../../src/platform/database.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';
import { testDialect } from '../../helpers/db.js';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';

const limits = { loginFailuresPerAccount: 3, loginFailuresPerAddress: 5, loginBlockSeconds: 30 };

describe('a throttle whose counts cannot be reached fails closed', () => {
  // A PostgreSQL database whose every query fails, as when the connection is lost.
  const db = { dialect: 'postgres', pool: { query: () => Promise.reject(new Error('Connection terminated unexpectedly')) } } as unknown as PlatformDb;
  const log = { error: vi.fn(), warn: vi.fn() };
  const throttle = new LoginThrottle(limits, db, log as unknown as FastifyBaseLogger);

  const refusal = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ApiError);
    const api = err as ApiError;
    expect([api.status, api.code, Number(api.headers['retry-after'])]).toEqual([503, 'SERVICE_UNAVAILABLE', 2]);
  };

  it('a try is neither allowed nor counted without the counts: 503 with Retry-After, logged', async () => {
    await refusal(throttle.retryAfter('eve@example.com', '10.1.0.1'));
    await refusal(throttle.failed('eve@example.com', '10.1.0.1'));
    expect(log.error).toHaveBeenCalledTimes(2);
  });

  it('clearing a pair after a correct password is best effort: a warning, no error', async () => {
    await expect(throttle.succeeded('eve@example.com', '10.1.0.1')).resolves.toBeUndefined();
    expect(log.warn).toHaveBeenCalledTimes(1);
  });
});

describe.skipIf(testDialect() !== 'postgres')('two nodes on one PostgreSQL database', () => {
  let tp: TestPlatform;
  let dbB: PlatformDb;
  let a: FastifyInstance;
  let b: FastifyInstance;

  beforeAll(async () => {
    tp = await buildTestPlatform({
      OVERLOOK_LOGIN_FAILURES_PER_ACCOUNT: String(limits.loginFailuresPerAccount),
      OVERLOOK_LOGIN_FAILURES_PER_ADDRESS: String(limits.loginFailuresPerAddress),
      OVERLOOK_LOGIN_BLOCK_SECONDS: String(limits.loginBlockSeconds),
    });
    a = tp.app;
    // Node B: the same configuration and schema, a pool of its own; the signing keys are the database's.
    dbB = openDb<PlatformDatabase>({ databaseUrl: tp.t.databaseUrl, pgSchema: tp.t.pgSchema, poolSize: 4 });
    const { config } = servicesOf(a);
    b = await buildPlatformApp({ config, db: dbB, logger: false });
    await b.ready();
  });
  afterAll(async () => {
    await b?.close();
    await dbB?.close();
    await tp?.close();
  });

  const signIn = (node: FastifyInstance, person: Person, ip: string, password = 'wrong-password') =>
    node.inject({ method: 'POST', url: '/v2/auth/login', remoteAddress: ip, payload: { username: person.email, password } });

  it('alternating wrong passwords between the nodes hits 429 after as many failures as on one node', async () => {
    const carol = await tp.person('carol');
    const ip = '10.2.0.1';
    for (const node of [a, b, a]) expect((await signIn(node, carol, ip)).statusCode).toBe(401);
    for (const node of [b, a]) {
      const blocked = await signIn(node, carol, ip, carol.password);
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().code).toBe('TOO_MANY_REQUESTS');
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    }
    // As on one node, the owner signs in from another address (on either node).
    expect((await signIn(b, carol, '10.2.0.2', carol.password)).statusCode).toBe(200);
  });

  it('an account blocked on A is blocked on B', async () => {
    const dave = await tp.person('dave');
    const ip = '10.3.0.1';
    for (let i = 0; i < limits.loginFailuresPerAccount; i++) expect((await signIn(a, dave, ip)).statusCode).toBe(401);
    expect((await signIn(a, dave, ip, dave.password)).statusCode).toBe(429);
    const onB = await signIn(b, dave, ip, dave.password);
    expect(onB.statusCode).toBe(429);
    expect(Number(onB.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('an address blocked on A is blocked on B, for every account', async () => {
    const ip = '10.4.0.1';
    for (let i = 0; i < limits.loginFailuresPerAddress; i++) expect((await signIn(a, await tp.person(`guess${i}`), ip)).statusCode).toBe(401);
    const erin = await tp.person('erin');
    expect((await signIn(b, erin, ip, erin.password)).statusCode).toBe(429);
  });

  it('a correct password on one node clears the pair’s failures on every node', async () => {
    const frank = await tp.person('frank');
    const ip = '10.5.0.1';
    for (let i = 0; i < 2; i++) expect((await signIn(a, frank, ip)).statusCode).toBe(401);
    expect((await signIn(b, frank, ip, frank.password)).statusCode).toBe(200);
    // Counted from zero again: two more failures do not reach the limit of three.
    for (let i = 0; i < 2; i++) expect((await signIn(a, frank, ip)).statusCode).toBe(401);
    expect((await signIn(a, frank, ip, frank.password)).statusCode).toBe(200);
  });

  it('keeps its counts in the app’s own schema, and prunes those that ended', async () => {
    const inSchema = await sql<{ key: string }>`select key from ${sql.id(tp.t.pgSchema!, 'login_throttle')}`.execute(tp.t.db.kysely);
    expect(inSchema.rows.some((r) => r.key.startsWith('pair:'))).toBe(true);
    expect(inSchema.rows.some((r) => r.key.startsWith('addr:'))).toBe(true);
    expect(inSchema.rows.some((r) => r.key.startsWith('acct:'))).toBe(true);
    await servicesOf(b).loginThrottle.prune(Date.now() + 2 * 3_600_000);
    const left = await sql<{ n: number }>`select count(*) as n from ${sql.id(tp.t.pgSchema!, 'login_throttle')}`.execute(tp.t.db.kysely);
    expect(left.rows[0]!.n).toBe(0);
  });

  it('fails closed while the counts cannot be read: 503 with Retry-After for a right or wrong password, then serves again', async () => {
    const grace = await tp.person('grace');
    const ip = '10.6.0.1';
    const table = (name: string) => sql.id(tp.t.pgSchema!, name);
    await sql`alter table ${table('login_throttle')} rename to login_throttle_away`.execute(tp.t.db.kysely);
    try {
      for (const password of [grace.password, 'wrong-password']) {
        for (const node of [a, b]) {
          const res = await signIn(node, grace, ip, password);
          expect(res.statusCode).toBe(503);
          expect(res.json().code).toBe('SERVICE_UNAVAILABLE');
          expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
        }
      }
    } finally {
      await sql`alter table ${table('login_throttle_away')} rename to login_throttle`.execute(tp.t.db.kysely);
    }
    expect((await signIn(b, grace, ip, grace.password)).statusCode).toBe(200);
  });
});
