import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import pg from 'pg';
import { LongFirstSequencer } from './test/helpers/long-first-sequencer.js';
import { PlainSummaryReporter } from './test/helpers/plain-summary-reporter.js';

// The suite in three layers by cost (CONTRIBUTING.md, Test):
// - unit: no database, no child process, no browser; run once, in one module graph per worker.
// - api: tests that build the platform on a fresh database of their own; on SQLite and on PostgreSQL,
//   the platform's modules loaded once per worker.
// - slow: browsers, clusters, the CLI, ffmpeg; the modules loaded once per worker too, one Chromium per run.
// PostgreSQL is at OVERLOOK_TEST_PG_URL, or at the local default when one answers there.
const DEFAULT_PG = 'postgres://postgres@127.0.0.1:5432/test';

const UNIT = [
  'test/ai/companion-metrics.test.ts',
  'test/ai/gate-report/pairing.test.ts',
  'test/docs/architecture.test.ts',
  'test/lib/*.test.ts',
  'test/lib/{auth,cache,config,db,net,process,secrets,site-link,time}/**/*.test.ts',
  'test/lib/http/{compiled-schemas,draining,error-handler,json-depth,metrics,request-id,slow-clients}.test.ts',
  'test/platform/access/decide.test.ts',
  'test/platform/anpr/plate-and-time.test.ts',
  'test/platform/api-keys/allow-list.test.ts',
  'test/platform/live-view/live-view-units.test.ts',
  'test/platform/live-view/media-tokens.test.ts',
  'test/platform/picture-checks/frame-analysis.test.ts',
  'test/platform/plugins/feature.test.ts',
  'test/platform/recordings/frame-cache.test.ts',
  'test/platform/secrets/secret-key.test.ts',
  'test/platform/table-owners.test.ts',
  'test/recorder/live/whep-cap.test.ts',
  'test/recorder/uploads/snapshot-slots.test.ts',
  'test/platform/outbox/private-events.test.ts',
];
/**
 * API files whose subject is not the database (HTTP hardening, the published documents, the access
 * layer's wiring): their answers do not depend on the engine, so they run on SQLite only.
 */
const ENGINE_FREE = [
  'test/platform/hostile-load.test.ts',
  'test/platform/openapi/openapi-document.test.ts',
  'test/platform/openapi/request-id.test.ts',
  'test/lib/http/cors.test.ts',
  'test/docs/caches.test.ts',
  'test/platform/access-layer/route-classification.test.ts',
  'test/platform/access/scope-map.test.ts',
];
const BROWSER = [
  'test/platform/web-app/**/*.test.ts',
  'test/platform/key-page/**/*.test.ts',
  'test/platform/cors-browser.test.ts',
  'test/platform/openapi/docs-page.test.ts',
  'test/recorder/web-ui/**/*.test.ts',
];
/** Several nodes on one PostgreSQL database: on SQLite these files only skip, so they run on PostgreSQL alone. */
const PG_ONLY = ['test/platform/cluster/**/*.test.ts', 'test/platform/**/*-cluster.test.ts'];
/** Slow files whose work goes through the platform's database, run on PostgreSQL too; not the RTSP live view (one camera row). */
const SLOW_ON_DB = [
  ...PG_ONLY,
  'test/platform/live-view/live-view.test.ts',
  'test/platform/media-hub/renders.test.ts',
  'test/platform/media-hub/render-leases.test.ts',
  'test/platform/recorder-links/linked-live-on-demand.test.ts',
];
const SLOW = [
  ...BROWSER,
  ...SLOW_ON_DB,
  'test/platform/live-view/live-view-rtsp.test.ts',
  'test/platform/live-view/live-streams.test.ts',
  'test/platform/live-view/live-stream-counts.test.ts',
  'test/cli/**/*.test.ts',
  'test/docs/readme-walkthrough.test.ts',
  'test/mcp/cli.test.ts',
  'test/recorder/**/*.test.ts',
  'test/platform/recorder-links/site-link-e2e.test.ts',
];
/**
 * Files that wait minutes on purpose and compute little (the site link's two-minute outage): beside
 * the first group, in one of its workers from the start, so the wait overlaps the busiest part of the
 * run and leaves every later worker to files that compute.
 */
const WAITING = ['test/platform/recorder-links/site-link-outage.test.ts'];
/**
 * Slow files whose real timers race real processes (leases, live streams' idle stop, a cluster's
 * nodes, a killed recorder, a deadline on an ended session): after the others, four at a time, beside
 * the PostgreSQL slow files (the two projects share those workers). No browser among them: the
 * run's one Chromium serves the slow-sqlite project.
 */
const TIMED = [
  ...SLOW_ON_DB,
  'test/platform/live-view/live-view-rtsp.test.ts',
  'test/platform/live-view/live-streams.test.ts',
  'test/platform/live-view/live-stream-counts.test.ts',
  'test/recorder/kill.test.ts',
  'test/recorder/live/**/*.test.ts',
  'test/cli/reset-password.test.ts',
  'test/platform/recorder-links/site-link-e2e.test.ts',
];

/**
 * The last group's files mostly wait on timers and child processes, and left the cores two-thirds idle
 * at three at a time: four. The WebRTC test lost its video at three until no test changed this host's
 * addresses mid-run (docs/decisions.md).
 */
const TIMED_WORKERS = 4;

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
  const sqlite = { OVERLOOK_TEST_DB: 'sqlite' };
  const postgres = { OVERLOOK_TEST_DB: 'postgres', OVERLOOK_TEST_PG_URL: pgUrl };
  const project = (test: {
    name: string;
    include: string[];
    exclude?: string[];
    isolate?: boolean;
    globalSetup?: string[];
    env: Record<string, string>;
    maxWorkers?: number;
    sequence?: { groupOrder: number };
  }) => ({
    extends: true as const,
    test,
  });
  const api = (name: string, env: Record<string, string>, exclude: string[] = []) =>
    project({ name, include: ['test/**/*.test.ts'], exclude: [...UNIT, ...SLOW, ...WAITING, ...exclude], isolate: false, env });
  const builtCli = 'test/helpers/built-cli.ts';
  // The network namespace of the site-link files, made before any file runs (test/helpers/netns.ts).
  const siteHost = 'test/helpers/site-host-setup.ts';
  return {
    test: {
      pool: 'forks',
      // One worker more than cores: the tests wait more than they compute (ffmpeg, browsers, child
      // processes, real timers), and vitest's default of one less than the cores left one core idle here.
      // The first group has one more for each WAITING file, which holds its worker through the group.
      maxWorkers: availableParallelism() + 1 + WAITING.length,
      testTimeout: 60_000,
      hookTimeout: 120_000,
      reporters: ['default', new PlainSummaryReporter()],
      sequence: { sequencer: LongFirstSequencer },
      projects: [
        project({ name: 'unit', include: UNIT, isolate: false, env: sqlite }),
        // The first group's workers are shared: the sequencer starts this project's file first.
        project({ name: 'waiting-sqlite', include: WAITING, isolate: false, globalSetup: [builtCli, siteHost], env: sqlite }),
        api('api-sqlite', sqlite),
        ...(withPg ? [api('api-postgres', postgres, ENGINE_FREE)] : []),
        // The slow files after the others (groupOrder): three at a time, as they mostly wait on Chromium,
        // ffmpeg and child processes; then the timed ones and the PostgreSQL ones, four at a time
        // together (CONTRIBUTING.md, Test).
        project({
          name: 'slow-sqlite',
          include: SLOW,
          isolate: false,
          exclude: [...UNIT, ...TIMED],
          globalSetup: [builtCli, siteHost, 'test/helpers/chromium-server.ts'],
          env: sqlite,
          maxWorkers: 3,
          sequence: { groupOrder: 1 },
        }),
        project({
          name: 'slow-timed-sqlite',
          include: TIMED,
          isolate: false,
          exclude: [...UNIT, ...PG_ONLY],
          globalSetup: [builtCli, siteHost],
          env: sqlite,
          maxWorkers: TIMED_WORKERS,
          sequence: { groupOrder: 2 },
        }),
        ...(withPg
          ? [
              project({
                name: 'slow-postgres',
                include: SLOW_ON_DB,
                isolate: false,
                globalSetup: [builtCli],
                env: postgres,
                maxWorkers: TIMED_WORKERS,
                sequence: { groupOrder: 2 },
              }),
            ]
          : []),
      ],
    },
  };
});
