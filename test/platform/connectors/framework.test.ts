// The connectors framework itself: the token vault (AES-256-GCM, tamper-evident, its key kept in the
// database sealed with OVERLOOK_SECRET_KEY or a 0600 key file made once), the scope map's connector operations (24 of them
// for Procore, ACC and Aconex, all under /v2/connectors/<id>, and the shared callback not scoped),
// expired OAuth states, and no orphan rows when a person, project or camera goes away.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopeMap } from '../../../src/platform/access/scope-map.js';
import { TokenVault } from '../../../src/platform/connectors/framework/token-vault.js';
import { loadSecretKey } from '../../../src/platform/secrets/secret-key.js';
import { isLocalPath } from '../../../src/platform/connectors/framework/connectors-service.js';
import { buildTestPlatform, type TestPlatform } from '../../helpers/platform.js';
import { servicesOf } from '../../../src/platform/plugins/feature.js';

describe('token vault', () => {
  it('round-trips, uses a fresh IV each time, and detects tampering and a wrong key', () => {
    const vault = new TokenVault(Buffer.alloc(32, 7));
    const a = vault.encrypt('access-token-1');
    const b = vault.encrypt('access-token-1');
    expect(a).not.toBe(b);
    expect(a).not.toContain('access-token-1');
    expect(vault.decrypt(a)).toBe('access-token-1');
    const parts = a.split('.');
    const flipped = parts[3]!.startsWith('A') ? 'B' + parts[3]!.slice(1) : 'A' + parts[3]!.slice(1);
    expect(() => vault.decrypt([parts[0], parts[1], parts[2], flipped].join('.'))).toThrow();
    expect(() => new TokenVault(Buffer.alloc(32, 8)).decrypt(a)).toThrow();
    expect(() => vault.decrypt('plain')).toThrow();
    expect(() => new TokenVault(Buffer.alloc(16))).toThrow();
  });

  it('the secret key the vault key is sealed with: OVERLOOK_SECRET_KEY, or a 0600 key file made once and reused', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vault-'));
    try {
      const given = Buffer.alloc(32, 3);
      expect(loadSecretKey({ secretKeyBase64: given.toString('base64'), dataDir: dir }).key.equals(given)).toBe(true);
      expect(() => loadSecretKey({ secretKeyBase64: Buffer.alloc(10).toString('base64'), dataDir: dir })).toThrow(/32 bytes/);
      const made = loadSecretKey({ dataDir: dir }).key;
      const file = join(dir, 'connector-secret.key');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64').equals(made)).toBe(true);
      expect(loadSecretKey({ dataDir: dir }).key.equals(made)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('accepts only local redirect paths', () => {
    for (const ok of ['/', '/projects/x?tab=1', '/a#b']) expect(isLocalPath(ok), ok).toBe(true);
    for (const bad of ['//evil.example', '/\\evil', 'https://evil.example', 'relative', '/a b', '']) expect(isLocalPath(bad), bad).toBe(false);
  });
});

describe('connectors in the platform', () => {
  let tp: TestPlatform;
  beforeAll(async () => {
    tp = await buildTestPlatform({ OVERLOOK_SECRET_KEY: Buffer.alloc(32, 9).toString('base64') });
  });
  afterAll(async () => tp?.close());

  it('publishes 24 project:connectors operations for Procore, ACC and Aconex, each under its own prefix', () => {
    const entries = scopeMap(servicesOf(tp.app).registeredRoutes).filter((e) => e.scopes.includes('project:connectors'));
    const mine = entries.filter((e) => /^\/v2\/connectors\/(procore|acc|aconex)\//.test(e.path));
    const per = (id: string) => mine.filter((e) => e.path.startsWith(`/v2/connectors/${id}/`)).length;
    expect({ procore: per('procore'), acc: per('acc'), aconex: per('aconex') }).toEqual({ procore: 8, acc: 9, aconex: 7 });
    for (const e of entries) expect(e.path, `${e.method} ${e.path}`).toMatch(/^\/v2\/connectors\/[a-z0-9-]+\//);
    const callback = scopeMap(servicesOf(tp.app).registeredRoutes).find((e) => e.path === '/v2/connectors/{provider}/callback');
    expect(callback).toMatchObject({ access: 'people', scopes: [] });
  });

  it('forgets expired states and removes connections, states, uploads and events with their person, project or camera', async () => {
    const owner = await tp.person('owner');
    const project = await tp.project(owner, 'Gone soon');
    const camera = await tp.camera(owner, project.exid, 'Cam');
    const { id: cameraId } = await servicesOf(tp.app).cameras.row(camera.exid);
    const { id: projectId } = await tp.t.db.kysely.selectFrom('projects').select('id').where('exid', '=', project.exid).executeTakeFirstOrThrow();
    const store = servicesOf(tp.app).connectors.store;
    await store.saveConnection(owner.id, 'procore', { authKind: 'oauth', accessToken: 'tok-plain-123', refreshToken: 'ref-plain-456' });
    await store.saveState({
      state: 'old',
      userId: owner.id,
      provider: 'procore',
      codeVerifier: 'v',
      projectExid: null,
      redirectAfter: null,
      expiresAt: '2000-01-01T00:00:00.000Z',
    });
    expect(await store.takeState('old', 'procore')).toBeNull();
    await store.saveState({
      state: 's1',
      userId: owner.id,
      provider: 'procore',
      codeVerifier: 'verifier-plain',
      projectExid: null,
      redirectAfter: null,
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    });
    expect(await store.takeState('s1', 'acc')).toBeNull();
    await store.saveState({
      state: 's2',
      userId: owner.id,
      provider: 'procore',
      codeVerifier: 'verifier-plain',
      projectExid: null,
      redirectAfter: null,
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    });
    const stateRow = await tp.t.db.kysely.selectFrom('connector_oauth_states').selectAll().where('state', '=', 's2').executeTakeFirstOrThrow();
    expect(JSON.stringify(stateRow)).not.toContain('verifier-plain');
    await store.recordUpload({ provider: 'procore', userId: owner.id, projectId, cameraId, remoteProjectId: '1', remoteId: '2', name: 'x.jpg' });
    await store.recordEvent({ provider: 'procore', userId: owner.id, projectId, payload: { ring: true } });
    const conn = await tp.t.db.kysely.selectFrom('connector_connections').selectAll().where('user_id', '=', owner.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(conn)).not.toMatch(/tok-plain-123|ref-plain-456/);

    await tp.t.db.kysely.deleteFrom('cameras').where('id', '=', cameraId).execute();
    expect(await tp.t.db.kysely.selectFrom('connector_uploads').select('id').where('project_id', '=', projectId).execute()).toHaveLength(0);
    await tp.t.db.kysely.deleteFrom('projects').where('id', '=', projectId).execute();
    expect(await tp.t.db.kysely.selectFrom('connector_events').select('id').where('project_id', '=', projectId).execute()).toHaveLength(0);
    await tp.t.db.kysely.deleteFrom('users').where('id', '=', owner.id).execute();
    expect(await tp.t.db.kysely.selectFrom('connector_connections').select('id').where('user_id', '=', owner.id).execute()).toHaveLength(0);
    expect(await tp.t.db.kysely.selectFrom('connector_oauth_states').select('state').where('user_id', '=', owner.id).execute()).toHaveLength(0);
  });
});
