// Secrets kept in the database (docs/deploy.md, Secrets): nodes of one database that share only
// DATABASE_URL and OVERLOOK_SECRET_KEY accept each other's JWTs and OAuth tokens; nodes starting at once
// store exactly one key of each kind; `keys rotate` adds a key that new sign-ins use while tokens of the
// older one keep verifying; the stored values are sealed; one SQLite node needs no configuration, and a
// data dir's key file from before the keys moved to the database keeps its sessions valid.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { generateSigningKeyPem, JWT_KEYS_REFRESH_MS } from '../../../src/lib/auth/jwt.js';
import { platformConfig } from '../../../src/lib/config.js';
import { openDb } from '../../../src/lib/db/index.js';
import { buildPlatformApp } from '../../../src/platform/app.js';
import type { PlatformDatabase, PlatformDb } from '../../../src/platform/database.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';
import { listedKeys, rotateJwtKey } from '../../../src/platform/secrets/jwt-keys.js';
import { SecretStore } from '../../../src/platform/secrets/secret-store.js';
import { jwtKeyRetireAfterMs } from '../../../src/platform/secrets/secrets-plugin.js';
import { createUser } from '../../../src/platform/users/create-user.js';
import { createTestDb, testDialect, type TestDb } from '../../helpers/db.js';
import { freePort, obtainTokens, tokenRequest } from '../../helpers/oauth-servers.js';

const dirs: string[] = [];
const dataDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'overlook-secrets-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const SECRET_KEY = randomBytes(32).toString('base64');

async function buildNode(db: PlatformDb, t: TestDb, dir: string, env: Record<string, string> = {}): Promise<FastifyInstance> {
  const config = { ...platformConfig({ dataDir: dir }, { OVERLOOK_RECORDING_LOOP: '0', ...env }), databaseUrl: t.databaseUrl };
  const app = await buildPlatformApp({ config, db, logger: false });
  await app.ready();
  return app;
}

async function login(app: FastifyInstance, who: { email: string; password: string }): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/v2/auth/login', payload: { username: who.email, password: who.password } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().token;
}

const me = (app: FastifyInstance, token: string) => app.inject({ method: 'GET', url: '/v2/auth/users/me', headers: { authorization: `Bearer ${token}` } });
const jwksKids = async (app: FastifyInstance) =>
  ((await app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json().keys as { kid: string }[]).map((k) => k.kid);
const kidOf = (token: string) => decodeProtectedHeader(token).kid;
/** Moves the clock (Date only; timers and I/O stay real) past the nodes' key refresh, until the test ends. */
function pastKeyRefresh() {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + JWT_KEYS_REFRESH_MS + 1 });
  onTestFinished(() => {
    vi.useRealTimers();
  });
}
const rowsOf = (db: PlatformDb) => db.kysely.selectFrom('secrets').selectAll().orderBy('kind').orderBy('generation').execute();

let n = 0;
async function person(db: PlatformDb) {
  const email = `secrets-${++n}-${process.pid}@example.com`;
  const password = `pw-secrets-${n}-long`;
  await createUser(db, { email, password, firstname: 'Sec', lastname: 'Rets' });
  return { email, password };
}

describe.runIf(testDialect() === 'postgres')('two nodes on one PostgreSQL database, built without a signer', () => {
  let t: TestDb;
  let dbB: PlatformDb;
  let a: FastifyInstance;
  let b: FastifyInstance;
  let urlA: string;
  let urlB: string;
  const mcpUrl = 'http://127.0.0.1:9/mcp';

  beforeAll(async () => {
    t = await createTestDb();
    dbB = openDb<PlatformDatabase>({ databaseUrl: t.databaseUrl, pgSchema: t.pgSchema, poolSize: 4 });
    const [portA, portB] = [await freePort(), await freePort()];
    urlA = `http://127.0.0.1:${portA}`;
    urlB = `http://127.0.0.1:${portB}`;
    // One platform behind one public URL; each node its own data dir; both start at the same moment.
    const env = { OVERLOOK_SECRET_KEY: SECRET_KEY, OVERLOOK_PUBLIC_URL: urlA, OVERLOOK_MCP_URL: mcpUrl };
    [a, b] = await Promise.all([buildNode(t.db, t, dataDir(), env), buildNode(dbB, t, dataDir(), env)]);
    await a.listen({ host: '127.0.0.1', port: portA });
    await b.listen({ host: '127.0.0.1', port: portB });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await dbB?.close();
    await t?.cleanup();
  });

  it('a first start on both at once stores exactly one key of each kind', async () => {
    const rows = await rowsOf(t.db);
    // One row of each kind, generation 1 (features may add kinds of their own: the site link's relay key, the mail links' key).
    const kinds = rows.map((r) => r.kind);
    expect(new Set(kinds).size).toBe(kinds.length);
    expect(kinds).toEqual(expect.arrayContaining(['connector-vault', 'jwt-signing', 'oauth-keys']));
    expect(rows.map((r) => Number(r.generation))).toEqual(rows.map(() => 1));
    expect(await jwksKids(a)).toEqual(await jwksKids(b));
  });

  it('accepts JWTs either node signed', async () => {
    const who = await person(t.db);
    const fromA = await login(a, who);
    const fromB = await login(b, who);
    for (const app of [a, b]) for (const token of [fromA, fromB]) expect((await me(app, token)).statusCode).toBe(200);
  });

  it('accepts OAuth access tokens either node issued', async () => {
    const who = await person(t.db);
    const tokens = await obtainTokens({ apiUrl: urlA, mcpUrl }, { ...who, id: '', token: '', auth: { authorization: '' } });
    const onB = await fetch(`${urlB}/v2/auth/users/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(onB.status).toBe(200);
    // Refreshed at B: signed with B's copy of the keys, accepted by A.
    const res = await tokenRequest(urlB, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: tokens.client_id, resource: mcpUrl });
    const refreshed = await res.json();
    expect(res.status, JSON.stringify(refreshed)).toBe(200);
    const onA = await fetch(`${urlA}/v2/auth/users/me`, { headers: { authorization: `Bearer ${refreshed.access_token}` } });
    expect(onA.status).toBe(200);
  });

  it('after a rotation on A, B signs with the new key and both accept tokens of either key', async () => {
    const who = await person(t.db);
    const before = await login(b, who);
    const rotated = await rotateJwtKey(servicesOf(a).secrets, { dataDir: dataDir(), retireAfterMs: 14 * 86_400_000 });
    expect(rotated.kid).not.toBe(kidOf(before));
    pastKeyRefresh();
    const after = await login(b, who);
    expect(kidOf(after)).toBe(rotated.kid);
    for (const app of [a, b]) {
      expect(await jwksKids(app)).toEqual([rotated.kid, kidOf(before)]);
      for (const token of [before, after]) expect((await me(app, token)).statusCode).toBe(200);
    }
  });
});

describe(`one node on ${testDialect()}`, () => {
  let t: TestDb;
  let app: FastifyInstance;
  let dir: string;

  beforeAll(async () => {
    t = await createTestDb();
    dir = dataDir();
  });
  afterAll(async () => {
    await app?.close();
    await t?.cleanup();
  });

  it('needs no configuration: a 0600 key file seals the keys, and a restart keeps them', async () => {
    app = await buildNode(t.db, t, dir);
    expect(statSync(join(dir, 'connector-secret.key')).mode & 0o777).toBe(0o600);
    const who = await person(t.db);
    const token = await login(app, who);
    await app.close();
    app = await buildNode(t.db, t, dir);
    expect((await me(app, token)).statusCode).toBe(200);
  });

  it('stores the keys sealed: no row holds a key in the clear, and another secret key opens none', async () => {
    const rows = await rowsOf(t.db);
    expect(rows.length).toBeGreaterThanOrEqual(3);
    const secrets = servicesOf(app).secrets;
    for (const row of rows) {
      // base64url only: no PEM armour, no JSON of a JWK.
      expect(row.sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
      const [stored] = (await secrets.list(row.kind)).filter((s) => s.generation === Number(row.generation));
      const plain = stored!.value;
      for (const form of [plain, Buffer.from(plain).toString('base64'), Buffer.from(plain).toString('base64url')]) expect(row.sealed).not.toContain(form);
    }
    await expect(new SecretStore(t.db, randomBytes(32)).list('jwt-signing')).rejects.toThrow(/same OVERLOOK_SECRET_KEY/);
  });

  it('rotation: old tokens keep verifying, new sign-ins carry the new kid, the JWKS lists both', async () => {
    const who = await person(t.db);
    const before = await login(app, who);
    const config = servicesOf(app).config;
    const rotated = await rotateJwtKey(servicesOf(app).secrets, { dataDir: dir, retireAfterMs: jwtKeyRetireAfterMs(config) });
    pastKeyRefresh();
    const after = await login(app, who);
    expect(kidOf(after)).toBe(rotated.kid);
    expect(kidOf(before)).not.toBe(rotated.kid);
    expect(await jwksKids(app)).toEqual([rotated.kid, kidOf(before)]);
    expect((await me(app, before)).statusCode).toBe(200);
    expect((await me(app, after)).statusCode).toBe(200);
  });

  it('a replaced key is listed until the longest token it signed has expired, then retired', () => {
    const day = 86_400_000;
    const now = Date.parse('2026-11-24T12:00:00Z');
    const at = (daysAgo: number) => new Date(now - daysAgo * day).toISOString();
    const secrets = [
      { kind: 'jwt-signing', generation: 3, kid: 'k3', value: '', createdAt: at(1) },
      { kind: 'jwt-signing', generation: 2, kid: 'k2', value: '', createdAt: at(20) },
      { kind: 'jwt-signing', generation: 1, kid: 'k1', value: '', createdAt: at(40) },
    ];
    // k2 was replaced a day ago (still verifying); k1 twenty days ago (its 14-day tokens are all gone).
    expect(listedKeys(secrets, 14 * day, now).map((s) => s.kid)).toEqual(['k3', 'k2']);
  });
});

describe(`explicit keys and old key files on ${testDialect()}`, () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb();
  });
  afterAll(() => t.cleanup());

  it('OVERLOOK_JWT_PRIVATE_KEY wins; a data dir’s old jwt-signing-key.pem becomes the first stored key, so its sessions stay valid', async () => {
    const pem = await generateSigningKeyPem();
    const dir = dataDir();
    const given = await buildNode(t.db, t, dir, { OVERLOOK_JWT_PRIVATE_KEY: pem });
    const who = await person(t.db);
    const token = await login(given, who);
    const kids = await jwksKids(given);
    await given.close();
    expect((await rowsOf(t.db)).filter((r) => r.kind === 'jwt-signing')).toEqual([]);

    // The same key, as an old data dir holds it: imported, not replaced.
    writeFileSync(join(dir, 'jwt-signing-key.pem'), pem, { mode: 0o600 });
    const upgraded = await buildNode(t.db, t, dir);
    try {
      expect(await jwksKids(upgraded)).toEqual(kids);
      expect((await me(upgraded, token)).statusCode).toBe(200);
      expect((await rowsOf(t.db)).filter((r) => r.kind === 'jwt-signing').map((r) => r.kid)).toEqual(kids);
    } finally {
      await upgraded.close();
    }
  });
});
