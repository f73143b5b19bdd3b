// What the request metrics add to a request (docs/deploy.md, Metrics), in-process: the same base app and
// route with metrics off and on, driven by app.inject in rounds of random order, measured in CPU time
// (process.cpuUsage: wall time on a shared, loaded machine mostly measures the neighbours), the median
// µs per request of each; then the recording step alone, in a tight loop.
// Usage: node --import tsx bench/metrics-overhead.ts
import type { FastifyInstance } from 'fastify';
import { createBaseApp } from '../src/lib/http/base-app.js';
import { registerMetricsRoute } from '../src/lib/http/metrics.js';
import { Registry } from 'prom-client';
import { RequestMetrics } from '../src/lib/http/metrics-requests.js';
import { METRICS_OFF, type MetricsConfig } from '../src/lib/config/metrics-config.js';

const ROUNDS = Number(process.env.ROUNDS ?? 31);
const PER_ROUND = Number(process.env.PER_ROUND ?? 3000);
/** LOGGER=1: with a (silent) logger, as the services run, where Fastify times every answer anyway. */
const LOGGER = process.env.LOGGER === '1';

async function app(metrics: MetricsConfig): Promise<FastifyInstance> {
  const a = createBaseApp({ bodyLimit: 1024, logger: LOGGER ? { level: 'silent' } : false, metrics });
  a.get('/v2/things/:id', async (req) => ({ id: (req.params as { id: string }).id }));
  registerMetricsRoute(a);
  await a.ready();
  return a;
}

/** CPU µs per request over one round. */
async function round(a: FastifyInstance): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < PER_ROUND; i++) await a.inject({ method: 'GET', url: `/v2/things/t${i & 63}` });
  const used = process.cpuUsage(start);
  return (used.user + used.system) / PER_ROUND;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const off = await app(METRICS_OFF);
const on = await app({ token: 'bench-token-0123456789', allow: [] });
await round(off);
await round(on);
const offTimes: number[] = [];
const onTimes: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  if (Math.random() < 0.5) {
    offTimes.push(await round(off));
    onTimes.push(await round(on));
  } else {
    onTimes.push(await round(on));
    offTimes.push(await round(off));
  }
}
const scrape = await on.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer bench-token-0123456789' } });
if (!scrape.body.includes(`route="/v2/things/:id",status_code="200"} ${(ROUNDS + 1) * PER_ROUND}`)) throw new Error('the requests were not all counted');
await off.close();
await on.close();

// The recording step alone: what the onResponse hook does per request.
const stats = new RequestMetrics(new Registry()).route('/v2/things/:id');
const N = 5_000_000;
for (let i = 0; i < N; i++) stats.record('GET', 200, (i & 1023) / 10_000);
const t0 = process.hrtime.bigint();
for (let i = 0; i < N; i++) stats.record('GET', 200, (i & 1023) / 10_000);
const recordNs = Number(process.hrtime.bigint() - t0) / N;

const result = {
  off_cpu_us_per_request: Number(median(offTimes).toFixed(2)),
  on_cpu_us_per_request: Number(median(onTimes).toFixed(2)),
  added_us_per_request: Number((median(onTimes) - median(offTimes)).toFixed(2)),
  record_ns: Number(recordNs.toFixed(1)),
  logger: LOGGER,
  rounds: ROUNDS,
  per_round: PER_ROUND,
};
console.table([result]);
console.log(JSON.stringify({ bench: 'metrics-overhead', ...result }));
