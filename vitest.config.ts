import { defineConfig } from 'vitest/config';
import pg from 'pg';
import { PlainSummaryReporter } from './test/helpers/plain-summary-reporter.js';

// One run executes the suite on embedded SQLite and, for the database-backed tests, again on
// PostgreSQL: at OVERLOOK_TEST_PG_URL, or at the local default when one answers there.
const DEFAULT_PG = 'postgres://postgres@127.0.0.1:5432/test';

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

export default defineConfig(async () => {
  const pgUrl = process.env.OVERLOOK_TEST_PG_URL ?? DEFAULT_PG;
  const withPg = await reachable(pgUrl);
  if (!withPg) {
    if (process.env.OVERLOOK_TEST_REQUIRE_PG === '1') throw new Error(`PostgreSQL is required but not reachable at ${pgUrl}`);
    process.stderr.write(`\n[overlook] PostgreSQL not reachable at ${pgUrl}: running the suite on SQLite only.\n\n`);
  }
  return {
    test: {
      pool: 'forks',
      testTimeout: 60_000,
      hookTimeout: 120_000,
      reporters: ['default', new PlainSummaryReporter()],
      projects: [
        { extends: true as const, test: { name: 'sqlite', include: ['test/**/*.test.ts'], env: { OVERLOOK_TEST_DB: 'sqlite' } } },
        ...(withPg
          ? [
              {
                extends: true as const,
                test: {
                  name: 'postgres',
                  include: ['test/platform/**/*.test.ts', 'test/lib/**/*.test.ts'],
                  // The browser tests of the pages drive the same API, which is proven on both databases by
                  // its own tests; running every screen twice would only double the slowest part of the suite.
                  exclude: ['test/platform/web-app/**', 'test/platform/key-page/**', 'test/platform/cors-browser.test.ts'],
                  env: { OVERLOOK_TEST_DB: 'postgres', OVERLOOK_TEST_PG_URL: pgUrl },
                },
              },
            ]
          : []),
      ],
    },
  };
});
