// One set of migrations for SQLite and PostgreSQL: up on an empty database, down on seeded data, up again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { migrateDownAll, migrateToLatest } from '../../../src/lib/db/migrate.js';
import { PLATFORM_MIGRATIONS } from '../../../src/platform/db/platform-migrations.js';
import { createUser } from '../../../src/platform/users/create-user.js';
import { createTestDb, testDialect, type TestDb } from '../../helpers/db.js';

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb({ migrate: false });
});
afterAll(() => t.cleanup());

async function tableNames(): Promise<string[]> {
  const tables = await t.db.kysely.introspection.getTables();
  // On PostgreSQL the introspection sees every schema; this test's tables are in its own.
  return tables
    .filter((x) => !t.pgSchema || x.schema === t.pgSchema)
    .map((x) => x.name)
    .filter((n) => !n.startsWith('kysely_'))
    .sort();
}

describe(`migrations on ${testDialect()}`, () => {
  it('apply every migration, in order, once', async () => {
    const applied = await migrateToLatest(t.db, PLATFORM_MIGRATIONS);
    expect(applied).toEqual(Object.keys(PLATFORM_MIGRATIONS));
    expect(await migrateToLatest(t.db, PLATFORM_MIGRATIONS)).toEqual([]);
    expect(await tableNames()).toEqual(
      expect.arrayContaining(['users', 'sessions', 'projects', 'project_members', 'cameras', 'api_keys', 'api_key_projects', 'notifications']),
    );
  });

  it('enforce foreign keys and uniqueness on both databases', async () => {
    await createUser(t.db, { email: 'fk@example.com', password: 'long-enough-pw' });
    await expect(
      t.db.kysely.insertInto('project_members').values({ project_id: 'nope', user_id: 'nope', role: 'viewer', created_at: new Date().toISOString() }).execute(),
    ).rejects.toThrow();
    await expect(createUser(t.db, { email: 'FK@example.com', password: 'long-enough-pw' })).rejects.toThrow(/already exists/);
  });

  it('roll back to nothing on seeded data, and come back up', async () => {
    const down = await migrateDownAll(t.db, PLATFORM_MIGRATIONS);
    expect(down.length).toBe(Object.keys(PLATFORM_MIGRATIONS).length);
    expect(await tableNames()).toEqual([]);
    await migrateToLatest(t.db, PLATFORM_MIGRATIONS);
    const { count } = (await sql<{ count: number }>`select count(*) as count from users`.execute(t.db.kysely)).rows[0]!;
    expect(Number(count)).toBe(0);
  });
});
