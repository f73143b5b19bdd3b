// The leak report (POST /v2/api-keys/leaks, docs/security.md, Leaked keys): no credential needed, closed
// to keys; a valid value revokes its key at once, the owner is notified and the event audited; the answer
// is the same whatever the values were; reports are throttled per address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../../src/lib/auth/api-key-format.js';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';

let tp: TestPlatform;
let owner: Person;
let exid: string;
let camera: string;
beforeAll(async () => {
  tp = await buildTestPlatform();
  owner = await tp.person('owner');
  exid = (await tp.project(owner)).exid;
  camera = (await tp.camera(owner, exid)).exid;
});
afterAll(() => tp.close());

let address = 10;
/** Each report from its own address, so the per-address throttle only counts where a test means it to. */
const report = (keys: unknown, opts: { ip?: string; headers?: Record<string, string> } = {}) =>
  tp.app.inject({ method: 'POST', url: '/v2/api-keys/leaks', payload: { keys }, headers: opts.headers, remoteAddress: opts.ip ?? `192.0.2.${address++}` });

async function eventually<T>(read: () => Promise<T | undefined>, ms = 3000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error('not within the time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('POST /v2/api-keys/leaks', () => {
  it('revokes a reported key at once, notifies its owner and audits it; the answer is the same for any value', async () => {
    const k = await tp.key(owner, { projects: [exid], scopes: ['cameras:read'], name: 'CI deploy key' });
    const revokedBefore = await tp.key(owner, { projects: [exid], scopes: ['cameras:read'] });
    await tp.app.inject({ method: 'POST', url: `/v2/api-keys/${revokedBefore.id}/revoke`, headers: owner.auth });
    expect((await tp.app.inject({ method: 'GET', url: `/v2/cameras/${camera}`, headers: k.headers })).statusCode).toBe(200);

    const answers = await Promise.all([report([k.key]), report([generateApiKey()]), report(['olk_not-even-well-formed']), report([revokedBefore.key])]);
    for (const a of answers) {
      expect(a.statusCode).toBe(202);
      expect(a.body).toBe('{"received":1}');
    }
    expect((await report([generateApiKey(), 'x', k.key])).json()).toEqual({ received: 3 });

    expect((await tp.app.inject({ method: 'GET', url: `/v2/cameras/${camera}`, headers: k.headers })).statusCode).toBe(401);
    expect((await tp.app.inject({ method: 'GET', url: `/v2/api-keys/${k.id}`, headers: owner.auth })).json().status).toBe('revoked');

    const note = await eventually(async () => {
      const list = (await tp.app.inject({ method: 'GET', url: '/v2/notifications', headers: owner.auth })).json();
      const items = (Array.isArray(list) ? list : (list.data ?? list.notifications ?? [])) as { type: string; message: string }[];
      return items.find((n) => n.type === 'api_key_leaked');
    });
    expect(note.message).toContain('CI deploy key');
    expect(note.message).not.toContain(k.key);
    const audited = await eventually(async () =>
      (await tp.t.db.kysely.selectFrom('audit_events').selectAll().where('action', '=', 'api_key.revoked_as_leaked').execute()).find(
        (e) => e.target_id === k.id,
      ),
    );
    expect(audited.subject_user_id).toBe(owner.id);
    // The already-revoked key was not revoked again (no second event).
    const others = await tp.t.db.kysely.selectFrom('audit_events').select('target_id').where('action', '=', 'api_key.revoked_as_leaked').execute();
    expect(others.map((e) => e.target_id)).not.toContain(revokedBefore.id);
  });

  it('needs no credential, accepts a person, and is closed to keys', async () => {
    expect((await report([generateApiKey()], { headers: owner.auth })).statusCode).toBe(202);
    const k = await tp.key(owner, { projects: [exid], scopes: ['cameras:read'] });
    const withKey = await report([generateApiKey()], { headers: k.headers });
    expect(withKey.statusCode).toBe(403);
    expect(withKey.json().code).toBe('ENDPOINT_CLOSED_TO_KEYS');
    // Other /v2/api-keys paths still refuse keys, and need a person.
    expect((await tp.app.inject({ method: 'GET', url: '/v2/api-keys', headers: k.headers })).json().code).toBe('ENDPOINT_CLOSED_TO_KEYS');
    expect((await tp.app.inject({ method: 'GET', url: '/v2/api-keys' })).statusCode).toBe(401);
  });

  it('bounds the count and size of the values: 400 VALIDATION_ERROR', async () => {
    for (const keys of [[], Array.from({ length: 101 }, () => generateApiKey()), ['x'.repeat(201)], [42], 'olk_x']) {
      const res = await report(keys);
      expect(res.statusCode, JSON.stringify(keys).slice(0, 40)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    }
  });

  it('throttles reports per address: 429 with RateLimit fields and Retry-After', async () => {
    const ip = '198.51.100.99';
    for (let i = 0; i < 20; i++) expect((await report([generateApiKey()], { ip })).statusCode).toBe(202);
    const over = await report([generateApiKey()], { ip });
    expect(over.statusCode).toBe(429);
    expect(over.headers['ratelimit-policy']).toBe('"leak-report";q=20;w=600');
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect((await report([generateApiKey()], { ip: '198.51.100.100' })).statusCode).toBe(202);
  });
});
