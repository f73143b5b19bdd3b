// Prometheus metrics of one service (docs/deploy.md, Metrics): request counts and latencies by route
// template, refusals by error code, the process's own metrics, and whatever gauges the service adds.
// Off unless OVERLOOK_METRICS_TOKEN or OVERLOOK_METRICS_ALLOW is set: then nothing is measured and
// /metrics does not exist. Each app has its own registry (tests build many apps in one process); the
// process metrics are collected once per process and shared by every app's registry.
import type { FastifyBaseLogger, FastifyContextConfig, FastifyInstance, onErrorHookHandler, onResponseHookHandler, RouteOptions } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { ApiError } from '../errors.js';
import { metricsEnabled, type MetricsConfig } from '../config/metrics-config.js';
import { metricsGuard } from './metrics-guard.js';
import { RequestMetrics, type RouteStats } from './metrics-requests.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `false`: the route is left out of the request metrics (/metrics itself). */
    metrics?: false;
  }
  interface FastifyInstance {
    /** The service's metrics; null when they are off (docs/deploy.md, Metrics). */
    metrics: ServiceMetrics | null;
  }
}

/** The route label of requests no route matched (a template always starts with `/`). */
const UNMATCHED_ROUTE = 'unmatched';

/** The statuses a refusal counts under: no credential, not allowed, too many. */
const REFUSALS = new Set([401, 403, 429]);

export interface ServiceMetrics {
  readonly config: MetricsConfig;
  readonly registry: Registry;
  /** Counts a request no route matched; the not-found handler calls it. */
  unmatched(method: string, elapsedMs: number): void;
}

let processRegistry: Registry | null = null;

/** The process's CPU, memory, event loop and GC metrics, set up once per process. */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

const appended = <T>(existing: T | T[] | undefined, hook: T): T[] =>
  existing === undefined ? [hook] : Array.isArray(existing) ? [...existing, hook] : [existing, hook];

/**
 * Starts measuring `app` when `config` opens /metrics: call before any route is registered. Each route
 * gets its own onResponse hook, bound to its template's stats, so a request costs no lookup.
 */
export function installMetrics(app: FastifyInstance, config: MetricsConfig): ServiceMetrics | null {
  if (!metricsEnabled(config)) {
    app.decorate('metrics', null);
    return null;
  }
  const registry = Registry.merge([processMetrics()]);
  const requests = new RequestMetrics(registry);
  const refusals = new Counter({
    name: 'overlook_access_refusals_total',
    help: 'Requests refused with 401, 403 or 429, by error code (docs/access-model.md)',
    labelNames: ['code'],
    registers: [registry],
  });
  const onError: onErrorHookHandler = (_req, _reply, error, done) => {
    if (error instanceof ApiError && REFUSALS.has(error.status)) refusals.inc({ code: error.code });
    done();
  };
  app.addHook('onRoute', (route: RouteOptions) => {
    if (route.config?.metrics === false) return;
    const stats: RouteStats = requests.route(route.url);
    const onResponse: onResponseHookHandler = (req, reply, done) => {
      stats.record(req.method, reply.statusCode, reply.elapsedTime / 1000);
      done();
    };
    // New arrays: the HEAD route Fastify adds for a GET copies the options as they were before this hook.
    route.onResponse = appended(route.onResponse, onResponse) as RouteOptions['onResponse'];
    route.onError = appended(route.onError, onError) as RouteOptions['onError'];
  });
  const unmatched = requests.route(UNMATCHED_ROUTE);
  const metrics: ServiceMetrics = {
    config,
    registry,
    unmatched: (method, elapsedMs) => unmatched.record(method, 404, elapsedMs / 1000),
  };
  app.decorate('metrics', metrics);
  return metrics;
}

/**
 * `GET /metrics` in the Prometheus text format, behind the token or address check; `config` is what
 * the service's own access rules need to let the request reach that check (the platform's
 * `access: public`, the recorder's `auth: public`). Nothing when metrics are off.
 */
export function registerMetricsRoute(app: FastifyInstance, config: FastifyContextConfig = {}): void {
  const metrics = app.metrics;
  if (!metrics) return;
  app.get('/metrics', { config: { ...config, metrics: false }, schema: { hide: true }, onRequest: metricsGuard(metrics.config) }, async (_req, reply) => {
    const body = await metrics.registry.metrics();
    return reply.header('cache-control', 'no-store').type(metrics.registry.contentType).send(body);
  });
}

export interface GaugeSpec<L extends string> {
  name: string;
  help: string;
  labelNames?: readonly L[];
  /** The current value(s), read when scraped: one number, or one per label set. */
  read: () => number | { labels: Partial<Record<L, string>>; value: number }[] | Promise<number | { labels: Partial<Record<L, string>>; value: number }[]>;
}

/**
 * A gauge read from the service's state at scrape time. A read that fails is logged and leaves the last
 * values in place, so one unreachable dependency does not take the whole scrape down.
 */
export function scrapeGauge<L extends string>(metrics: ServiceMetrics, log: FastifyBaseLogger, spec: GaugeSpec<L>): void {
  new Gauge<L>({
    name: spec.name,
    help: spec.help,
    labelNames: spec.labelNames ?? [],
    registers: [metrics.registry],
    async collect() {
      let current: Awaited<ReturnType<GaugeSpec<L>['read']>>;
      try {
        current = await spec.read();
      } catch (err) {
        log.warn({ err, metric: spec.name }, 'metrics: could not read a gauge');
        return;
      }
      if (typeof current === 'number') {
        this.set(current);
        return;
      }
      this.reset();
      for (const v of current) this.set(v.labels, v.value);
    },
  });
}

/** A counter that follows a running total the service keeps (`read`), brought up to date when scraped. */
export function scrapeCounter(metrics: ServiceMetrics, spec: { name: string; help: string; read: () => number }): void {
  let reported = 0;
  new Counter({
    name: spec.name,
    help: spec.help,
    registers: [metrics.registry],
    collect() {
      const total = spec.read();
      if (total > reported) this.inc(total - reported);
      reported = total;
    },
  });
}
