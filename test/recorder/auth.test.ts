// Recorder credentials (docs/recorder.md): its own access tokens only, `?token=` on media routes only,
// logout revokes at once, role user is read-only, every route declares who may call it.
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recorderAuth } from '../../src/recorder/auth/hook.js';
import { buildTestRecorder, type TestRecorder } from '../helpers/recorder.js';

let r: TestRecorder;
beforeAll(async () => {
  r = await buildTestRecorder();
});
afterAll(() => r.close());

describe('login', () => {
  it('200 with an access token; wrong or unknown credentials 401 with the same answer', async () => {
    const ok = await r.app.inject({ method: 'POST', url: '/api/users/login', payload: { username: 'ADMIN@example.com', password: 'password-123' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().access_token).toMatch(/^ort_/);
    const wrong = await r.app.inject({ method: 'POST', url: '/api/users/login', payload: { username: 'admin@example.com', password: 'nope-nope' } });
    const unknown = await r.app.inject({ method: 'POST', url: '/api/users/login', payload: { username: 'who@example.com', password: 'nope-nope' } });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe('Wrong username or password');
    }
    const bad = await r.app.inject({ method: 'POST', url: '/api/users/login', payload: { username: 'a@b.co' } });
    expect(bad.statusCode).toBe(400);
  });

  it('tokens are stored only as hashes', async () => {
    const rows = await r.db.kysely.selectFrom('access_tokens').select('token_hash').execute();
    expect(rows.some((x) => x.token_hash === r.adminToken)).toBe(false);
    expect(rows.every((x) => /^[0-9a-f]{64}$/.test(x.token_hash))).toBe(true);
  });
});

describe('what is accepted', () => {
  it('no token, a platform JWT, an API key, x-api-key: 401 with a challenge', async () => {
    const jwt = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln';
    const key = 'olk_' + 'a'.repeat(49);
    for (const headers of [
      {},
      { authorization: `Bearer ${jwt}` },
      { 'x-access-key': key },
      { authorization: `Bearer ${key}` },
      { 'x-api-key': r.adminToken },
    ]) {
      const res = await r.app.inject({ method: 'GET', url: '/api/devices', headers });
      expect(res.statusCode, JSON.stringify(headers)).toBe(401);
      expect(res.headers['www-authenticate']).toContain('Bearer');
    }
  });

  it('?token= works on media routes only', async () => {
    const res = await r.app.inject({ method: 'GET', url: `/api/devices?token=${r.adminToken}` });
    expect(res.statusCode).toBe(401);
    const chunks = await r.app.inject({ method: 'GET', url: `/api/recordings/chunks?token=${r.adminToken}` });
    expect(chunks.statusCode).toBe(401);
    // A media route takes it (404: no such device, but authenticated).
    const media = await r.app.inject({ method: 'GET', url: `/api/devices/00000000-0000-0000-0000-000000000000/snapshot?token=${r.adminToken}` });
    expect(media.statusCode).toBe(404);
    const mediaBad = await r.app.inject({ method: 'GET', url: `/api/devices/00000000-0000-0000-0000-000000000000/snapshot?token=ort_nope` });
    expect(mediaBad.statusCode).toBe(401);
  });

  it('logout revokes the token at once; other tokens of the user still work', async () => {
    const login = () => r.app.inject({ method: 'POST', url: '/api/users/login', payload: { username: 'viewer@example.com', password: 'password-123' } });
    const a = (await login()).json().access_token;
    const b = (await login()).json().access_token;
    expect((await r.app.inject({ method: 'GET', url: '/api/devices', headers: r.bearer(a) })).statusCode).toBe(200);
    expect((await r.app.inject({ method: 'DELETE', url: '/api/users/login', headers: r.bearer(a) })).statusCode).toBe(204);
    expect((await r.app.inject({ method: 'GET', url: '/api/devices', headers: r.bearer(a) })).statusCode).toBe(401);
    expect((await r.app.inject({ method: 'GET', url: `/api/devices/x/snapshot?token=${a}` })).statusCode).toBe(401);
    expect((await r.app.inject({ method: 'GET', url: '/api/devices', headers: r.bearer(b) })).statusCode).toBe(200);
  });

  it('an expired token is refused', async () => {
    const owner = await r.app.recorder.tokens.verify(r.userToken);
    expect(owner).not.toBeNull();
    expect(await r.app.recorder.tokens.verify(r.userToken, owner!.expiresAt + 1)).toBeNull();
  });
});

describe('roles', () => {
  it('role user reads but changes nothing; admins manage users', async () => {
    const user = r.bearer(r.userToken);
    expect((await r.app.inject({ method: 'GET', url: '/api/devices', headers: user })).statusCode).toBe(200);
    const create = await r.app.inject({
      method: 'POST',
      url: '/api/devices',
      headers: user,
      payload: { name: 'x', type: 'file', stream_config: { path: r.video } },
    });
    expect(create.statusCode).toBe(403);
    expect(create.json().code).toBe('PERMISSION_DENIED');
    expect((await r.app.inject({ method: 'GET', url: '/api/users', headers: user })).statusCode).toBe(403);

    const admin = r.bearer(r.adminToken);
    const made = await r.app.inject({
      method: 'POST',
      url: '/api/users',
      headers: admin,
      payload: { email: 'ops@example.com', password: 'password-456', role: 'user' },
    });
    expect(made.statusCode).toBe(201);
    expect(made.body).not.toContain('password');
    const dup = await r.app.inject({ method: 'POST', url: '/api/users', headers: admin, payload: { email: 'OPS@example.com', password: 'password-456' } });
    expect(dup.statusCode).toBe(409);
    const short = await r.app.inject({ method: 'POST', url: '/api/users', headers: admin, payload: { email: 'x@example.com', password: 'short' } });
    expect(short.statusCode).toBe(400);
    const id = made.json().id;
    const opsLogin = await r.app.inject({ method: 'POST', url: '/api/users/login', payload: { username: 'ops@example.com', password: 'password-456' } });
    const opsToken = opsLogin.json().access_token;
    // Promoted: the same token can write at once.
    expect((await r.app.inject({ method: 'PUT', url: `/api/users/${id}`, headers: admin, payload: { role: 'admin' } })).json().role).toBe('admin');
    expect((await r.app.inject({ method: 'GET', url: '/api/users', headers: r.bearer(opsToken) })).statusCode).toBe(200);
    // New password: old tokens end.
    expect((await r.app.inject({ method: 'PUT', url: `/api/users/${id}`, headers: admin, payload: { password: 'password-789' } })).statusCode).toBe(200);
    expect((await r.app.inject({ method: 'GET', url: '/api/users', headers: r.bearer(opsToken) })).statusCode).toBe(401);
    expect((await r.app.inject({ method: 'DELETE', url: `/api/users/${id}`, headers: admin })).statusCode).toBe(204);
    expect((await r.app.inject({ method: 'GET', url: `/api/users/${id}`, headers: admin })).statusCode).toBe(404);
    const me = (await r.app.recorder.tokens.verify(r.adminToken))!;
    expect((await r.app.inject({ method: 'DELETE', url: `/api/users/${me.userId}`, headers: admin })).statusCode).toBe(409);
  });
});

describe('route declarations', () => {
  it('every route of the recorder declares its auth (the app starts), and the OpenAPI document says which', async () => {
    const doc = (await r.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const paths = Object.keys(doc.paths);
    expect(paths.every((p) => p.startsWith('/api/'))).toBe(true);
    // Twenty documented paths (docs/recorder.md), the ones ExNVR users know plus what its users asked for.
    // The WebRTC live view (WHEP, a standard protocol), the link to a platform and /health are served
    // but not in the document.
    expect(paths.sort()).toEqual(
      [
        '/api/users/login',
        '/api/users',
        '/api/users/{id}',
        '/api/remote_storages',
        '/api/remote_storages/{id}',
        '/api/devices',
        '/api/devices/{id}',
        '/api/devices/{id}/webhook-tokens',
        '/api/recordings/chunks',
        '/api/devices/{id}/recordings',
        '/api/devices/{id}/recordings/{recording_id}/blob',
        '/api/devices/{id}/hls/index.m3u8',
        '/api/devices/{id}/hls/segments/{segment}',
        '/api/devices/{id}/snapshot',
        '/api/devices/{id}/footage',
        '/api/devices/{id}/events',
        '/api/devices/{id}/events/lpr',
        '/api/events',
        '/api/events/lpr',
        '/api/system/status',
      ].sort(),
    );
    expect(Object.keys(doc.paths['/api/users/login'])).toEqual(expect.arrayContaining(['post', 'delete']));
    for (const [p, ops] of Object.entries<Record<string, { 'x-auth': string }>>(doc.paths)) {
      for (const [m, op] of Object.entries(ops)) expect(op['x-auth'], `${m} ${p}`).toMatch(/^(public|read|admin|media|webhook)$/);
    }
    expect((await r.app.inject({ method: 'GET', url: '/api/docs' })).statusCode).toBeLessThan(400);
  });

  it('a route without a declaration stops the server from starting', async () => {
    const app = Fastify({ logger: false });
    await app.register(recorderAuth({ tokens: r.app.recorder.tokens, webhooks: r.app.recorder.webhooks }));
    app.get('/api/forgotten', async () => 'oops');
    await expect(app.ready()).rejects.toThrow(/without an auth declaration: GET \/api\/forgotten/);
  });
});
