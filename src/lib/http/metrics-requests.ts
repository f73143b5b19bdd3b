// Request counts and latencies by route template, method and status code. The request path only bumps
// plain numbers in a series found without allocating (each route has its own stats, made once when the
// route is registered); the Prometheus families are built from them when /metrics is scraped. prom-client's
// own Histogram hashes its labels on every observation, which costs more than the rest of this together
// (docs/deploy.md, Metrics, has the measurement).
import type { Metric, Registry } from 'prom-client';

/** Upper bounds of the latency buckets, in seconds (prom-client's defaults). */
export const DURATION_BUCKETS: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface RequestLabels {
  method: string;
  route: string;
  status_code: string;
}

/** One label set: how many requests, their total seconds, and how many fell in each bucket (not cumulative). */
class Series {
  count = 0;
  sum = 0;
  /** One slot per bound, plus one for slower requests. */
  readonly buckets = new Float64Array(DURATION_BUCKETS.length + 1);
  constructor(
    readonly method: string,
    readonly status: number,
    readonly labels: RequestLabels,
  ) {}
}

/** Every series of one app, in the order they first appeared. */
export class RequestTable {
  readonly series: Series[] = [];

  /** The stats of one route template (or of requests no route matched). */
  route(template: string): RouteStats {
    return new RouteStats(template, this);
  }

  add(method: string, status: number, route: string): Series {
    const s = new Series(method, status, { method, route, status_code: String(status) });
    this.series.push(s);
    return s;
  }
}

export class RouteStats {
  private readonly byMethod = new Map<string, Map<number, Series>>();
  /** The series of the previous request: most requests to a route share method and status. */
  private last: Series | null = null;

  constructor(
    readonly template: string,
    private readonly table: RequestTable,
  ) {}

  record(method: string, status: number, seconds: number): void {
    let s = this.last;
    if (s === null || s.status !== status || s.method !== method) {
      s = this.find(method, status);
      this.last = s;
    }
    s.count++;
    s.sum += seconds;
    let i = 0;
    while (i < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[i]!) i++;
    s.buckets[i]!++;
  }

  private find(method: string, status: number): Series {
    let byStatus = this.byMethod.get(method);
    if (!byStatus) {
      byStatus = new Map();
      this.byMethod.set(method, byStatus);
    }
    let s = byStatus.get(status);
    if (!s) {
      s = this.table.add(method, status, this.template);
      byStatus.set(status, s);
    }
    return s;
  }
}

interface Value {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

/**
 * A metric family in the shape prom-client's Registry reads from every metric (name, help, type and the
 * values `get()` returns), so the registry writes it with the others.
 */
function family(name: string, help: string, type: 'counter' | 'histogram', values: () => Value[]): Metric {
  const get = async () => ({ name, help, type, aggregator: 'sum', values: values() });
  return { name, help, type, aggregator: 'sum', get, reset: () => undefined } as unknown as Metric;
}

/** Registers `overlook_http_requests_total` and `overlook_http_request_duration_seconds`, read from `table`. */
export function registerRequestFamilies(registry: Registry, table: RequestTable): void {
  registry.registerMetric(
    family('overlook_http_requests_total', 'HTTP requests answered, by method, route template and status code', 'counter', () =>
      table.series.map((s) => ({ labels: { ...s.labels }, value: s.count })),
    ),
  );
  const name = 'overlook_http_request_duration_seconds';
  registry.registerMetric(
    family(name, 'Time from receiving a request to the end of its answer, in seconds, by method, route template and status code', 'histogram', () =>
      table.series.flatMap((s) => {
        const out: Value[] = [];
        let cumulative = 0;
        DURATION_BUCKETS.forEach((le, i) => {
          cumulative += s.buckets[i]!;
          out.push({ metricName: `${name}_bucket`, labels: { ...s.labels, le }, value: cumulative });
        });
        out.push({ metricName: `${name}_bucket`, labels: { ...s.labels, le: '+Inf' }, value: s.count });
        out.push({ metricName: `${name}_sum`, labels: { ...s.labels }, value: s.sum });
        out.push({ metricName: `${name}_count`, labels: { ...s.labels }, value: s.count });
        return out;
      }),
    ),
  );
}
