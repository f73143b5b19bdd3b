// Builds the very app `overlook serve` runs, on a fresh database, with helpers to act as people and keys.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { platformConfig } from '../../src/lib/config.js';
import { buildPlatformApp } from '../../src/platform/app.js';
import { Algorithm, hash } from '@node-rs/argon2';
import { newId } from '../../src/lib/ids.js';
import { DEFAULT_FEATURES } from '../../src/platform/users/create-user.js';
import { normaliseEmail } from '../../src/platform/users/user-record.js';
import { insertUser } from '../../src/platform/users/users-repository.js';
import { createTestDb, type TestDb } from './db.js';

export interface Person {
  id: string;
  email: string;
  password: string;
  token: string;
  auth: { authorization: string };
}

export interface TestPlatform {
  app: FastifyInstance;
  t: TestDb;
  close(): Promise<void>;
  /** Creates a person and signs them in. */
  person(name?: string, opts?: { admin?: boolean }): Promise<Person>;
  project(owner: Person, name?: string): Promise<{ exid: string; id: string; name: string }>;
  camera(owner: Person, projectExid: string, name?: string): Promise<{ exid: string; name: string; project_exid: string }>;
  addMember(owner: Person, projectExid: string, member: Person, role: string): Promise<void>;
  key(
    owner: Person,
    body: { projects: string[]; scopes: string[]; name?: string; expires_at?: string },
  ): Promise<{ id: string; key: string; headers: { 'x-access-key': string } }>;
}

let counter = 0;

// Everyone the helper makes shares one password, hashed once per worker, with light argon2id
// parameters: the platform's (src/lib/auth/passwords.ts) take tens of milliseconds of CPU per sign-in
// by design, and the suite signs thousands of people in. Each still signs in through the real route,
// whose verify reads the parameters from the stored hash. (`createUser`, sign-in and the platform's
// parameters have tests of their own: test/lib/auth/passwords.test.ts.)
const PASSWORD = 'pw-person-secret';
let passwordHash: Promise<string> | undefined;
const hashOfPassword = () => {
  passwordHash ??= hash(PASSWORD, { algorithm: Algorithm.Argon2id, memoryCost: 1024, timeCost: 1, parallelism: 1 });
  return passwordHash;
};

async function insertPerson(db: TestDb['db'], email: string, firstname: string, isAdmin = false): Promise<string> {
  const now = new Date().toISOString();
  const id = newId();
  await insertUser(db, {
    id,
    email: normaliseEmail(email),
    password_hash: await hashOfPassword(),
    firstname,
    lastname: 'Tester',
    is_admin: isAdmin ? 1 : 0,
    features: JSON.stringify(isAdmin ? [...DEFAULT_FEATURES, 'admin'] : DEFAULT_FEATURES),
    created_at: now,
    updated_at: now,
  });
  return id;
}

export async function buildTestPlatform(env: Record<string, string> = {}): Promise<TestPlatform> {
  const t = await createTestDb();
  // The cloud recorder loop is off unless a test turns it on: frames appear only where a test stores them.
  const config = { ...platformConfig({ dataDir: t.dataDir }, { OVERLOOK_RECORDING_LOOP: '0', ...env }), databaseUrl: t.databaseUrl };
  const app = await buildPlatformApp({ config, db: t.db, logger: false });
  await app.ready();

  const must = (res: LightMyRequestResponse, status: number, what: string) => {
    if (res.statusCode !== status) throw new Error(`${what}: expected ${status}, got ${res.statusCode} ${res.body}`);
    return res.json();
  };

  const tp: TestPlatform = {
    app,
    t,
    async close() {
      await app.close();
      await t.cleanup();
    },
    async person(name = 'person', opts = {}) {
      const email = `${name}-${++counter}-${process.pid}@example.com`;
      const id = await insertPerson(t.db, email, name, opts.admin);
      const res = await app.inject({ method: 'POST', url: '/v2/auth/login', payload: { username: email, password: PASSWORD } });
      const body = must(res, 200, 'login');
      return { id, email, password: PASSWORD, token: body.token, auth: { authorization: `Bearer ${body.token}` } };
    },
    async project(owner, name = 'Site project') {
      const res = await app.inject({ method: 'POST', url: '/v2/projects', headers: owner.auth, payload: { name } });
      return must(res, 201, 'create project');
    },
    async camera(owner, projectExid, name = 'Gate camera') {
      const res = await app.inject({ method: 'POST', url: '/v2/cameras', headers: owner.auth, payload: { name, project_exid: projectExid, simulated: true } });
      return must(res, 201, 'create camera');
    },
    async addMember(owner, projectExid, member, role) {
      const res = await app.inject({ method: 'POST', url: `/v2/projects/${projectExid}/members`, headers: owner.auth, payload: { email: member.email, role } });
      must(res, 201, 'add member');
    },
    async key(owner, body) {
      const payload = {
        name: body.name ?? 'test key',
        expires_at: body.expires_at ?? new Date(Date.now() + 86_400_000).toISOString(),
        projects: body.projects,
        scopes: body.scopes,
      };
      const res = await app.inject({ method: 'POST', url: '/v2/api-keys', headers: owner.auth, payload });
      const k = must(res, 201, 'create key');
      return { id: k.id, key: k.key, headers: { 'x-access-key': k.key } };
    },
  };
  return tp;
}
