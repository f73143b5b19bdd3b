// After a run of the administration flows (password and provider sign-ins, impersonation, key
// management and refusals, password change, the CRM proxy), no key value, password, JWT or configured
// secret is anywhere in the data dir, the database or the server's log output.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { platformConfig } from '../../../src/lib/config.js';
import { loggerOptions } from '../../../src/lib/logger.js';
import { buildPlatformApp } from '../../../src/platform/app.js';
import { createUser } from '../../../src/platform/users/create-user.js';
import { createTestDb, type TestDb } from '../../helpers/db.js';
import { startLocalOp, type LocalOp } from '../auth/local-openid-provider.js';
import type { FastifyInstance } from 'fastify';
import { servicesOf } from '../../../src/platform/plugins/feature.js';

const PUBLIC = 'http://127.0.0.1:9';
const CLIENT_SECRET = 'oidc-client-secret-7f3a9c';
const UPSTREAM_TOKEN = 'crm-upstream-token-5d2e8b';

let t: TestDb;
let app: FastifyInstance;
let op: LocalOp;
let upstream: Server;
const logLines: string[] = [];
const secrets = new Set<string>([CLIENT_SECRET, UPSTREAM_TOKEN]);

beforeAll(async () => {
  op = await startLocalOp([{ client_id: 'overlook', client_secret: CLIENT_SECRET, redirect_uri: `${PUBLIC}/v2/auth/provider/local/callback` }]);
  upstream = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': 'up=1' }).end('{"ok":true}'));
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  t = await createTestDb();
  const env = {
    OVERLOOK_PUBLIC_URL: PUBLIC,
    OVERLOOK_OIDC_PROVIDERS: JSON.stringify([{ id: 'local', issuer: op.issuer, client_id: 'overlook', client_secret: CLIENT_SECRET }]),
    OVERLOOK_CRM_URL: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
    OVERLOOK_CRM_TOKEN: UPSTREAM_TOKEN,
    OVERLOOK_CRM_PATHS: '/contacts/**',
  };
  const config = { ...platformConfig({ dataDir: t.dataDir }, env), databaseUrl: t.databaseUrl };
  const stream = new Writable({
    write(chunk, _enc, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  // The production logger (with its redaction), at debug level, into memory.
  app = await buildPlatformApp({ config, db: t.db, logger: { ...(loggerOptions('debug') as object), stream } as never });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await t.cleanup();
  await op.close();
  upstream.closeAllConnections();
  await new Promise((r) => upstream.close(r));
});

const call = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, headers: Record<string, string> = {}, payload?: object) =>
  app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

async function person(name: string, admin = false) {
  const email = `${name}-${process.pid}@example.com`;
  const password = `pw-${name}-Secret-${Math.random().toString(36).slice(2)}`;
  secrets.add(password);
  const user = await createUser(t.db, { email, password, isAdmin: admin });
  const token = (await call('POST', '/v2/auth/login', {}, { username: email, password })).json().token as string;
  secrets.add(token);
  return { ...user, password, auth: { authorization: `Bearer ${token}` } };
}

/** Every text the platform wrote: files in the data dir, every row of every table, every log line. */
async function haystack(): Promise<string> {
  const parts: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else parts.push(readFileSync(p).toString('latin1'));
    }
  };
  walk(t.dataDir);
  for (const table of await t.db.kysely.introspection.getTables()) {
    const rows = await t.db.kysely
      .selectFrom(table.name as never)
      .selectAll()
      .execute();
    parts.push(JSON.stringify(rows));
  }
  parts.push(...logLines);
  return parts.join('\n');
}

describe('no secret is written anywhere', () => {
  it('after the administration flows', async () => {
    const admin = await person('admin', true);
    const me = await person('me');
    const wrong = 'wrong-Password-x9';
    secrets.add(wrong);
    await call('POST', '/v2/auth/login', {}, { username: me.email, password: wrong });

    const project = (await call('POST', '/v2/projects', me.auth, { name: 'Secrets' })).json();
    const created = (
      await call('POST', '/v2/api-keys', me.auth, {
        name: 'k',
        expires_at: new Date(Date.now() + 86_400_000).toISOString(),
        projects: [project.exid],
        scopes: ['user:info'],
      })
    ).json();
    secrets.add(created.key);
    expect((await call('GET', '/v2/users/roles', { 'x-access-key': created.key })).statusCode).toBe(200);
    expect((await call('GET', '/v2/api-keys', { 'x-access-key': created.key })).statusCode).toBe(403);
    expect((await call('GET', '/v2/users/roles', { authorization: `Bearer ${created.key}` })).statusCode).toBe(401);
    const regenerated = (await call('POST', `/v2/api-keys/${created.id}/regenerate`, me.auth)).json();
    secrets.add(regenerated.key);
    expect((await call('GET', '/v2/users/roles', { 'x-access-key': created.key })).statusCode).toBe(401);

    const imp = (await call('POST', `/v2/admin/users/${me.id}/impersonate`, admin.auth)).json();
    secrets.add(imp.token);
    const impAuth = { authorization: `Bearer ${imp.token}` };
    expect((await call('POST', `/v2/api-keys/${created.id}/regenerate`, impAuth)).statusCode).toBe(403);
    await call('DELETE', `/v2/admin/impersonations/${imp.session_id}`, admin.auth);

    const newPassword = `New-Password-${Math.random().toString(36).slice(2)}`;
    secrets.add(newPassword);
    expect((await call('PATCH', `/v2/users/${me.id}`, me.auth, { password: newPassword, current_password: me.password })).statusCode).toBe(200);

    op.accounts.set('sub-me', { email: me.email, email_verified: true });
    const start = await call('GET', '/v2/auth/provider/local/login');
    const state = new URL(start.headers.location as string).searchParams.get('state')!;
    const back = await op.signIn(start.headers.location as string, 'sub-me', `${PUBLIC}/v2/auth/provider/local/callback`);
    secrets.add(back.searchParams.get('code')!);
    const signedIn = await call('GET', `/v2/auth/provider/local/callback${back.search}`, { cookie: `overlook_oidc_state=${state}` });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    secrets.add(signedIn.json().token);

    const proxied = await call('GET', '/v2/crm/contacts/1', { ...me.auth, cookie: 'session=ours' });
    expect(proxied.statusCode).toBe(200);

    await servicesOf(app).keys.flush();
    await servicesOf(app).sessions.flush();
    const text = await haystack();
    // One line per request: a dozen requests above, each logged.
    expect(logLines.length).toBeGreaterThan(10);
    // The haystack is real: request lines and audit rows are in it.
    expect(text).toContain(me.email);
    expect(text).toContain('/v2/auth/provider/local/callback?code=[redacted]');
    expect(text).toContain('impersonation.started');
    for (const secret of secrets) expect(text.includes(secret), `a secret (${secret.slice(0, 6)}…) was written`).toBe(false);
    // Nothing shaped like a JWT either (the audit log scrubs by shape, the logger by header).
    expect(text).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{20,}/);
  });
});
