// Without OVERLOOK_SMTP_URL e-mail is off: the platform says so (GET /v2/mail/status, the preferences),
// a reset request still answers 202 {} (it says nothing about accounts) and nothing is queued to send.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { platformConfig } from '../../../src/lib/config.js';
import { buildTestPlatform, type TestPlatform } from '../../helpers/platform.js';

let tp: TestPlatform;

beforeAll(async () => {
  tp = await buildTestPlatform();
});
afterAll(async () => {
  await tp?.close();
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
});

it('refuses an SMTP URL it cannot use, naming the setting', () => {
  expect(() => platformConfig({ dataDir: '/tmp/x' }, { OVERLOOK_SMTP_URL: 'http://mail.example.com' })).toThrow(/OVERLOOK_SMTP_URL/);
  expect(() => platformConfig({ dataDir: '/tmp/x' }, { OVERLOOK_SMTP_URL: 'not a url' })).toThrow(/OVERLOOK_SMTP_URL/);
  const cfg = platformConfig({ dataDir: '/tmp/x' }, { OVERLOOK_SMTP_URL: 'smtp://user:pw@127.0.0.1:2525', OVERLOOK_PUBLIC_URL: 'https://cams.example.com' });
  expect(cfg.mail).toEqual({ smtpUrl: 'smtp://user:pw@127.0.0.1:2525', from: 'Overlook <overlook@cams.example.com>' });
});
