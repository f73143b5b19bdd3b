// Password reset by e-mail, through a real SMTP conversation with a local sink: the request answers
// the same for known and unknown addresses and mails only the known one; the link's token sets a new
// password once, ends every earlier session, and is refused when spent or expired; keys are refused.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { startSmtpSink, type SmtpSink, type SunkMail } from '../../helpers/smtp-sink.js';

let tp: TestPlatform;
let sink: SmtpSink;
let alice: Person;

beforeAll(async () => {
  sink = await startSmtpSink();
  tp = await buildTestPlatform({
    OVERLOOK_SMTP_URL: sink.url,
    OVERLOOK_MAIL_FROM: 'Overlook <noreply@overlook.test>',
    OVERLOOK_PUBLIC_URL: 'https://overlook.test',
  });
  alice = await tp.person('alice');
});
afterAll(async () => {
  await tp?.close();
  await sink?.close();
});
afterEach(() => {
  vi.useRealTimers();
});

const ask = (email: string, ip = '10.0.0.1') => tp.app.inject({ method: 'POST', url: '/v2/auth/password-reset', payload: { email }, remoteAddress: ip });
const confirm = (token: string, password: string) => tp.app.inject({ method: 'POST', url: '/v2/auth/password-reset/confirm', payload: { token, password } });
const login = (username: string, password: string) => tp.app.inject({ method: 'POST', url: '/v2/auth/login', payload: { username, password } });

const tokenIn = (m: SunkMail) => {
  const link = /https:\/\/overlook\.test\/#\/reset-password\/([\w-]+)/.exec(m.text);
  expect(link, m.text).not.toBeNull();
  // The HTML carries the same link.
  expect(m.html).toContain(`href="https://overlook.test/#/reset-password/${link![1]}"`);
  return link![1]!;
};

describe('asking for a reset', () => {
  it('answers 202 {} for known and unknown addresses alike, and mails only the known one', async () => {
    const unknown = await ask('nobody-here@example.com');
    const known = await ask(alice.email.toUpperCase());
    expect(unknown.statusCode).toBe(202);
    expect(known.statusCode).toBe(202);
    expect(unknown.body).toBe(known.body);
    expect(known.json()).toEqual({});
    const mail = await sink.waitFor(alice.email);
    expect(mail.headers.get('from')).toContain('noreply@overlook.test');
    expect(mail.subject).toMatch(/reset/i);
    tokenIn(mail);
    expect(sink.to('nobody-here@example.com')).toEqual([]);
  });

  it('refuses API keys and malformed bodies', async () => {
    const project = await tp.project(alice);
    const key = await tp.key(alice, { projects: [project.exid], scopes: ['projects:read'] });
    const byKey = await tp.app.inject({ method: 'POST', url: '/v2/auth/password-reset', headers: key.headers, payload: { email: alice.email } });
    expect(byKey.statusCode).toBe(403);
    const byKeyConfirm = await tp.app.inject({
      method: 'POST',
      url: '/v2/auth/password-reset/confirm',
      headers: key.headers,
      payload: { token: 'x', password: 'long-enough-pw' },
    });
    expect(byKeyConfirm.statusCode).toBe(403);
    for (const payload of [{}, { email: '' }, { email: 'a@b.c', extra: 1 }, { email: 42 }]) {
      const res = await tp.app.inject({ method: 'POST', url: '/v2/auth/password-reset', payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    }
    const noToken = await tp.app.inject({ method: 'POST', url: '/v2/auth/password-reset/confirm', payload: { password: 'long-enough-pw' } });
    expect(noToken.statusCode).toBe(400);
  });
});

describe('the reset link', () => {
  it('sets the password once and ends every earlier session', async () => {
    const bob = await tp.person('bob');
    const before = sink.to(bob.email).length;
    expect((await ask(bob.email)).statusCode).toBe(202);
    const token = tokenIn(await sink.waitFor(bob.email, () => sink.to(bob.email).length > before));
    expect((await tp.app.inject({ method: 'GET', url: '/v2/auth/users/me', headers: bob.auth })).statusCode).toBe(200);

    // A password that fails the rules is refused and leaves the token unspent.
    const short = await confirm(token, 'short');
    expect(short.statusCode).toBe(400);
    expect(short.json().code).toBe('VALIDATION_ERROR');

    expect((await confirm(token, 'a-brand-new-password')).statusCode).toBe(204);
    expect((await tp.app.inject({ method: 'GET', url: '/v2/auth/users/me', headers: bob.auth })).statusCode).toBe(401);
    expect((await login(bob.email, 'a-brand-new-password')).statusCode).toBe(200);
    expect((await login(bob.email, bob.password)).statusCode).toBe(401);

    const again = await confirm(token, 'another-new-password');
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('VALIDATION_ERROR');
    expect((await login(bob.email, 'a-brand-new-password')).statusCode).toBe(200);
  });

  it('is refused once expired, and an unknown token is refused alike', async () => {
    const carol = await tp.person('carol');
    expect((await ask(carol.email)).statusCode).toBe(202);
    const token = tokenIn(await sink.waitFor(carol.email));
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 31 * 60_000);
    const late = await confirm(token, 'too-late-password');
    expect(late.statusCode).toBe(400);
    vi.useRealTimers();
    expect((await login(carol.email, carol.password)).statusCode).toBe(200);
    expect((await confirm('not-a-token-at-all', 'some-new-password')).statusCode).toBe(400);
  });
});

describe('throttling', () => {
  it('answers 429 to an address asking too often, whatever it asks about', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 12; i++) codes.push((await ask(`someone-${i}@example.com`, '10.9.9.9')).statusCode);
    expect(codes.slice(0, 10).every((c) => c === 202)).toBe(true);
    expect(codes.at(-1)).toBe(429);
    // Another address is not held back.
    expect((await ask('x@example.com', '10.9.9.8')).statusCode).toBe(202);
  });
});
