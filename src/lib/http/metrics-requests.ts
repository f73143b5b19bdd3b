// Request counts and latencies by route template, method and status code, as prom-client's own Counter
// and Histogram. Each route keeps the label children it has used, so a request looks its series up by
// method and status without building a labels object.
import { Counter, Histogram, type Registry } from 'prom-client';

/** Upper bounds of the latency buckets, in seconds (prom-client's defaults). */
const DURATION_BUCKETS: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

type RequestLabel = 'method' | 'route' | 'status_code';

/** One label set's children: its count and its latency. */
interface Series {
  count: ReturnType<Counter<RequestLabel>['labels']>;
  duration: ReturnType<Histogram<RequestLabel>['labels']>;
}

/** `overlook_http_requests_total` and `overlook_http_request_duration_seconds` of one app's registry. */
export class RequestMetrics {
  private readonly count: Counter<RequestLabel>;
  private readonly duration: Histogram<RequestLabel>;

  constructor(registry: Registry) {
    const labelNames: RequestLabel[] = ['method', 'route', 'status_code'];
    this.count = new Counter({
      name: 'overlook_http_requests_total',
      help: 'HTTP requests answered, by method, route template and status code',
      labelNames,
      registers: [registry],
    });
    this.duration = new Histogram({
      name: 'overlook_http_request_duration_seconds',
      help: 'Time from receiving a request to the end of its answer, in seconds, by method, route template and status code',
      labelNames,
      buckets: [...DURATION_BUCKETS],
      registers: [registry],
    });
  }

  /** The stats of one route template (or of requests no route matched). */
  route(template: string): RouteStats {
    return new RouteStats((method, status) => {
      const labels = { method, route: template, status_code: String(status) };
      return { count: this.count.labels(labels), duration: this.duration.labels(labels) };
    });
  }
}

export class RouteStats {
  /** The children made so far, by method and then status. */
  private readonly byMethod = new Map<string, Map<number, Series>>();

  constructor(private readonly make: (method: string, status: number) => Series) {}

  record(method: string, status: number, seconds: number): void {
    let byStatus = this.byMethod.get(method);
    if (!byStatus) {
      byStatus = new Map();
      this.byMethod.set(method, byStatus);
    }
    let series = byStatus.get(status);
    if (!series) {
      series = this.make(method, status);
      byStatus.set(status, series);
    }
    series.count.inc();
    series.duration.observe(seconds);
  }
}
