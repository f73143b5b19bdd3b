// The AI and Labs APIs (docs/access-model.md, credentials of the other services): a platform JWT in the headers each accepts, checked against the
// running main API's JWKS and sessions; API keys in any header, the other service's header, garbage
// and a logged-out session are all 401 with a challenge.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAiApp } from '../../src/ai/app.js';
import { buildLabsApp } from '../../src/labs/app.js';
import { buildTestPlatform, type Person, type TestPlatform } from '../helpers/platform.js';

let tp: TestPlatform;
let ai: FastifyInstance;
let labs: FastifyInstance;
let ada: Person;
let key: string;

beforeAll(async () => {
  tp = await buildTestPlatform();
  const apiUrl = await tp.app.listen({ host: '127.0.0.1', port: 0 });
  ai = await buildAiApp({ apiUrl, logger: false });
  labs = await buildLabsApp({ apiUrl, logger: false });
  ada = await tp.person('ada');
  const p = await tp.project(ada);
  key = (await tp.key(ada, { projects: [p.exid], scopes: ['user:info'] })).key;
});
afterAll(async () => {
  await ai?.close();
  await labs?.close();
  await tp.close();
});

const me = (app: FastifyInstance, headers: Record<string, string>) => app.inject({ method: 'GET', url: '/me', headers });

describe('AI API', () => {
  it('answers /me for a JWT in Authorization: Bearer or in x-api-key', async () => {
    for (const headers of <Record<string, string>[]>[{ authorization: `Bearer ${ada.token}` }, { 'x-api-key': ada.token }]) {
      const res = await me(ai, headers);
      expect(res.statusCode, JSON.stringify(headers).slice(0, 20)).toBe(200);
      expect(res.json()).toMatchObject({ id: ada.id, email: ada.email });
    }
  });

  it('refuses API keys in any header, garbage and a missing credential with 401 and a challenge', async () => {
    for (const headers of <Record<string, string>[]>[
      {},
      { authorization: `Bearer ${key}` },
      { 'x-api-key': key },
      { 'x-access-key': key },
      { authorization: 'Bearer not.a.jwt' },
      { authorization: 'Basic abc' },
      { 'x-api-key': ada.token + 'x' },
      { authorization: `Bearer ${ada.token}`, 'x-api-key': ada.token },
    ]) {
      const res = await me(ai, headers);
      expect(res.statusCode, JSON.stringify(headers).slice(0, 40)).toBe(401);
      expect(res.json().code).toBe('UNAUTHORIZED');
      expect(res.headers['www-authenticate']).toContain('realm="overlook-ai"');
    }
  });

  it('answers /health without a credential', async () => {
    expect((await ai.inject({ method: 'GET', url: '/health' })).json()).toEqual({ status: 'ok' });
  });
});

describe('Labs API', () => {
  it('answers /me for Authorization: Bearer <JWT> only', async () => {
    expect((await me(labs, { authorization: `Bearer ${ada.token}` })).json()).toMatchObject({ id: ada.id });
    for (const headers of <Record<string, string>[]>[
      { 'x-api-key': ada.token },
      { 'x-api-key': key },
      { 'x-access-key': key },
      { authorization: `Bearer ${key}` },
    ]) {
      const res = await me(labs, headers);
      expect(res.statusCode, Object.keys(headers)[0]).toBe(401);
      expect(res.headers['www-authenticate']).toContain('Bearer realm="overlook-labs"');
    }
  });
});

describe('a session that ends', () => {
  it('is refused by both services from the next request on', async () => {
    const bob = await tp.person('bob');
    expect((await me(ai, { authorization: `Bearer ${bob.token}` })).statusCode).toBe(200);
    expect((await me(labs, { authorization: `Bearer ${bob.token}` })).statusCode).toBe(200);
    expect((await tp.app.inject({ method: 'DELETE', url: '/v2/auth/logout', headers: bob.auth })).statusCode).toBeLessThan(300);
    for (const app of [ai, labs]) {
      const res = await me(app, { authorization: `Bearer ${bob.token}` });
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toContain('ended');
    }
  });

  it('a JWT signed by another key is refused without asking the main API', async () => {
    const other = await buildTestPlatform();
    const eve = await other.person('eve');
    await other.close();
    const res = await me(ai, { authorization: `Bearer ${eve.token}` });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toContain('not a valid platform JWT');
  });
});
