// The `overlook` command as outside programs use it (README.md): real processes, real HTTP.
import { describe, expect, it } from 'vitest';
import { overlook, serve, tempDir } from '../helpers/cli.js';

describe('overlook users create', () => {
  it('prints the new user as one JSON object and exits 0; a duplicate e-mail exits non-zero', () => {
    const dir = tempDir();
    const first = overlook(['users', 'create', '--email', 'Ada@Example.com', '--password', 'long-enough-pw', '--first-name', 'Ada', '--data-dir', dir]);
    expect(first.status, first.stderr).toBe(0);
    const user = JSON.parse(first.stdout);
    expect(user).toMatchObject({ email: 'ada@example.com', firstname: 'Ada', is_admin: false });
    expect(typeof user.id).toBe('string');
    // Commands that never serve do not load oidc-provider, so print none of its warnings (docs/decisions.md).
    expect(first.stderr).not.toContain('oidc-provider');
    const again = overlook(['users', 'create', '--email', 'ada@example.com', '--password', 'long-enough-pw', '--data-dir', dir]);
    expect(again.status).not.toBe(0);
    expect(again.stderr).toContain('already exists');
    const weak = overlook(['users', 'create', '--email', 'bob@example.com', '--password', 'short', '--data-dir', dir]);
    expect(weak.status).not.toBe(0);
  });

  it('migrate applies migrations once', () => {
    const dir = tempDir();
    const a = overlook(['migrate', '--data-dir', dir]);
    expect(a.status, a.stderr).toBe(0);
    expect(a.stderr).not.toContain('oidc-provider');
    expect(a.stdout).toContain('foundation');
    const b = overlook(['migrate', '--data-dir', dir]);
    expect(b.stdout).toContain('up to date');
  });
});

describe('overlook keys rotate', () => {
  it('adds a new active signing key each time and lists the older ones; refuses when OVERLOOK_JWT_PRIVATE_KEY is set', () => {
    const dir = tempDir();
    const first = overlook(['keys', 'rotate', '--data-dir', dir]);
    expect(first.status, first.stderr).toBe(0);
    const one = JSON.parse(first.stdout) as { active_kid: string; kids: string[] };
    expect(one.kids).toHaveLength(2);
    expect(one.kids[0]).toBe(one.active_kid);
    const second = overlook(['keys', 'rotate', '--data-dir', dir]);
    const two = JSON.parse(second.stdout) as { active_kid: string; kids: string[] };
    expect(two.kids).toEqual([two.active_kid, ...one.kids]);
    const pinned = overlook(['keys', 'rotate', '--data-dir', dir], { OVERLOOK_JWT_PRIVATE_KEY: 'pem' });
    expect(pinned.status).toBe(2);
    expect(pinned.stderr).toContain('OVERLOOK_JWT_PRIVATE_KEY');
  });
});

describe('overlook serve', () => {
  it('answers /health and signs in over real HTTP; credentials never reach the log', async () => {
    const dir = tempDir();
    overlook(['users', 'create', '--email', 'srv@example.com', '--password', 'serve-password-1', '--data-dir', dir]);
    const server = await serve(['serve', '--port', '0', '--data-dir', dir]);
    try {
      const health = await fetch(`${server.url}/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok' });
      const login = await fetch(`${server.url}/v2/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'srv@example.com', password: 'serve-password-1' }),
      });
      expect(login.status).toBe(200);
      const { token } = (await login.json()) as { token: string };
      const me = await fetch(`${server.url}/v2/auth/users/me`, { headers: { authorization: `Bearer ${token}` } });
      expect(me.status).toBe(200);
      await fetch(`${server.url}/v2/projects`, { headers: { 'x-access-key': 'olk_not_a_real_key_but_secret_looking' } });
      expect(server.output()).not.toContain(token);
      expect(server.output()).not.toContain('olk_not_a_real_key');
      expect(server.output()).not.toContain('serve-password-1');
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});

describe('overlook ai and overlook labs', () => {
  it('start beside the main API and answer /me for a signed-in person, trusting its JWKS and sessions', async () => {
    const dir = tempDir();
    overlook(['users', 'create', '--email', 'lab@example.com', '--password', 'labs-password-1', '--data-dir', dir]);
    const api = await serve(['serve', '--port', '0', '--data-dir', dir]);
    const ai = await serve(['ai', '--port', '0', '--api-url', api.url], { ready: /ai API listening on (http:\/\/\S+)/ });
    const labs = await serve(['labs', '--port', '0', '--api-url', api.url], { ready: /labs API listening on (http:\/\/\S+)/ });
    try {
      const login = await fetch(`${api.url}/v2/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'lab@example.com', password: 'labs-password-1' }),
      });
      const { token } = (await login.json()) as { token: string };
      for (const s of [ai, labs]) {
        expect(await (await fetch(`${s.url}/health`)).json()).toEqual({ status: 'ok' });
        const me = await fetch(`${s.url}/me`, { headers: { authorization: `Bearer ${token}` } });
        expect(me.status).toBe(200);
        expect(((await me.json()) as { email: string }).email).toBe('lab@example.com');
      }
      expect((await fetch(`${ai.url}/me`, { headers: { 'x-api-key': token } })).status).toBe(200);
      expect((await fetch(`${labs.url}/me`, { headers: { 'x-api-key': token } })).status).toBe(401);
    } finally {
      for (const s of [labs, ai, api]) expect(await s.stop()).toBe(0);
    }
    // Three processes start, migrate and stop one after another: a minute is not enough on a loaded 2-core machine.
  }, 180_000);
});

describe('overlook --help', () => {
  it('prints the commands and no oidc-provider warning: it is loaded only when the OAuth server is built', () => {
    const help = overlook(['--help']);
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toContain('users');
    expect(help.stderr).toBe('');
  });
});
