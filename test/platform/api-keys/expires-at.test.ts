// expires_at is read strictly as RFC 3339 (docs/security.md, Times): text Date.parse would bend into a
// date ("1" as 2001, a US date, 30 February rolled into March) is refused with 400 VALIDATION_ERROR, by
// the routes and by the service behind them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/lib/errors.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';

let tp: TestPlatform;
let owner: Person;
let exid: string;
beforeAll(async () => {
  tp = await buildTestPlatform();
  owner = await tp.person('owner');
  exid = (await tp.project(owner)).exid;
});
afterAll(() => tp.close());

const BAD = ['1', '12/25/2026', '2026-02-30T00:00:00Z', '2029-12-31', 'Mon, 31 Dec 2029 00:00:00 GMT'];

describe('expires_at', () => {
  it('the service refuses non-RFC 3339 text with VALIDATION_ERROR naming expires_at', async () => {
    const { apiKeys } = servicesOf(tp.app);
    for (const expires_at of BAD) {
      const err = await apiKeys.create(owner.id, { name: 'k', expires_at, projects: [exid], scopes: ['cameras:read'] }).catch((e: unknown) => e);
      expect(err, expires_at).toBeInstanceOf(ApiError);
      expect((err as ApiError).code).toBe('VALIDATION_ERROR');
      expect((err as ApiError).details).toEqual([expect.objectContaining({ field: 'expires_at' })]);
    }
    const k = await apiKeys.create(owner.id, { name: 'k', expires_at: '2030-01-01T00:00:00+02:00', projects: [exid], scopes: ['cameras:read'] });
    expect(k.expires_at).toBe('2029-12-31T22:00:00.000Z');
    for (const expires_at of BAD) {
      const err = await apiKeys.edit(owner.id, k.id, { expires_at }).catch((e: unknown) => e);
      expect((err as ApiError).code, expires_at).toBe('VALIDATION_ERROR');
    }
  });

  it('the routes answer 400 VALIDATION_ERROR on create and edit', async () => {
    const k = await tp.key(owner, { projects: [exid], scopes: ['cameras:read'] });
    for (const expires_at of BAD) {
      const created = await tp.app.inject({
        method: 'POST',
        url: '/v2/api-keys',
        headers: owner.auth,
        payload: { name: 'k', expires_at, projects: [exid], scopes: ['cameras:read'] },
      });
      expect(created.statusCode, expires_at).toBe(400);
      expect(created.json().code).toBe('VALIDATION_ERROR');
      const edited = await tp.app.inject({ method: 'PATCH', url: `/v2/api-keys/${k.id}`, headers: owner.auth, payload: { expires_at } });
      expect(edited.statusCode, expires_at).toBe(400);
    }
  });
});
