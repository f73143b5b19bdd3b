import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoData } from '../../../src/platform/demo/seed.js';
import { buildTestPlatform, type TestPlatform } from '../../helpers/platform.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';

let tp: TestPlatform;
beforeAll(async () => {
  tp = await buildTestPlatform();
});
afterAll(() => tp.close());

describe('demo data', () => {
  it('creates a user who can sign in, two projects and three simulated cameras, once', async () => {
    const demo = await seedDemoData(servicesOf(tp.app));
    expect(demo).not.toBeNull();
    expect(demo!.projects).toHaveLength(2);
    expect(demo!.cameras).toHaveLength(3);
    const login = await tp.app.inject({ method: 'POST', url: '/v2/auth/login', payload: { username: demo!.email, password: demo!.password } });
    expect(login.statusCode).toBe(200);
    const auth = { authorization: `Bearer ${login.json().token}` };
    const cams = (await tp.app.inject({ method: 'GET', url: '/v2/cameras', headers: auth })).json();
    expect(cams.map((c: { exid: string }) => c.exid).sort()).toEqual([...demo!.cameras].sort());
    expect(cams.every((c: { status: string; kind: string }) => c.status === 'online' && c.kind === 'simulated')).toBe(true);
    const note = await tp.app.inject({ method: 'GET', url: `/v2/cameras/${demo!.cameras[0]}/last-public-note`, headers: auth });
    expect(note.statusCode).toBe(200);
    expect(await seedDemoData(servicesOf(tp.app))).toBeNull();
  });
});
