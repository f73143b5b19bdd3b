// Without OVERLOOK_SMTP_URL e-mail is off: the platform says so (GET /v2/mail/status, the preferences),
// a reset request still answers 202 {} (it says nothing about accounts) and nothing is queued to send.
// Also the access rules of the preferences endpoints (people only).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkEndpointAccess, type EndpointSpec } from '../../helpers/access.js';
import { platformConfig } from '../../../src/lib/config.js';
import { buildTestPlatform, type TestPlatform } from '../../helpers/platform.js';

let tp: TestPlatform;

beforeAll(async () => {
  tp = await buildTestPlatform();
});
afterAll(async () => {
  await tp?.close();
});

describe('access', () => {
  const specs: EndpointSpec[] = [
    { method: 'GET', url: () => '/v2/users/me/email-preferences', scopes: [], okStatus: 200 },
    { method: 'PUT', url: () => '/v2/users/me/email-preferences', payload: () => ({ media_items: false }), scopes: [], okStatus: 200 },
  ];
  for (const spec of specs) it(`${spec.method} ${spec.url({} as never)}`, () => checkEndpointAccess(tp, spec));
});

it('says e-mail is off where a person would expect a message', async () => {
  const status = await tp.app.inject({ method: 'GET', url: '/v2/mail/status' });
  expect(status.statusCode).toBe(200);
  expect(status.json()).toEqual({ enabled: false });
  const alice = await tp.person('alice');
  const prefs = await tp.app.inject({ method: 'GET', url: '/v2/users/me/email-preferences', headers: alice.auth });
  expect(prefs.json().email_enabled).toBe(false);
  const reset = await tp.app.inject({ method: 'POST', url: '/v2/auth/password-reset', payload: { email: alice.email } });
  expect(reset.statusCode).toBe(202);
  expect(reset.json()).toEqual({});
  const events = await tp.t.db.kysely.selectFrom('outbox_events').select('type').where('type', '=', 'password_reset.requested').execute();
  expect(events).toEqual([]);
});

it('refuses an SMTP URL it cannot use, naming the setting', () => {
  expect(() => platformConfig({ dataDir: '/tmp/x' }, { OVERLOOK_SMTP_URL: 'http://mail.example.com' })).toThrow(/OVERLOOK_SMTP_URL/);
  expect(() => platformConfig({ dataDir: '/tmp/x' }, { OVERLOOK_SMTP_URL: 'not a url' })).toThrow(/OVERLOOK_SMTP_URL/);
  const cfg = platformConfig({ dataDir: '/tmp/x' }, { OVERLOOK_SMTP_URL: 'smtp://user:pw@127.0.0.1:2525', OVERLOOK_PUBLIC_URL: 'https://cams.example.com' });
  expect(cfg.mail).toEqual({ smtpUrl: 'smtp://user:pw@127.0.0.1:2525', from: 'Overlook <overlook@cams.example.com>' });
});
