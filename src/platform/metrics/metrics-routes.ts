// The main API's /metrics (docs/deploy.md, Metrics): the request metrics every service has, plus this
// node's live streams, the media hub's render queue and the background work this node holds, each read
// when Prometheus scrapes. The route is public to the access layer; its own guard (token or address)
// decides, so a metrics token is never taken for a person's credential.
import { registerMetricsRoute, scrapeGauge, type ServiceMetrics } from '../../lib/http/metrics.js';
import { publicRoute } from '../access/index.js';
import { defineRoutes } from '../plugins/feature.js';

declare module '../plugins/feature.js' {
  interface PlatformServices {
    /** The app's metrics, set up by the base app as on every service; null when they are off. */
    metrics: ServiceMetrics | null;
  }
}

/** Most pending media jobs counted per scrape: the gauge says "at least" beyond it, and the query stays bounded. */
const QUEUE_COUNT_CAP = 10_000;

/** The kinds of background work (docs/deploy.md, Background work); a lease name is `<kind>:<what>`. */
const WORK_KINDS = ['camera', 'retention', 'media', 'live', 'recorder-node'] as const;

export const metricsRoutes = defineRoutes(
  'metrics-routes',
  ['metrics', 'liveView', 'mediaJobs', 'workLeases'],
  async (app, { metrics, liveView, mediaJobs, workLeases }) => {
    if (!metrics) return;
    scrapeGauge(metrics, app.log, {
      name: 'overlook_live_streams',
      help: 'Live view streams (one ffmpeg each) on this node, by state',
      labelNames: ['state'],
      read: () => {
        const c = liveView.streams.counts();
        return [
          { labels: { state: 'running' }, value: c.running },
          { labels: { state: 'starting' }, value: c.starting },
        ];
      },
    });
    scrapeGauge(metrics, app.log, {
      name: 'overlook_live_viewers',
      help: 'Viewers of the live streams running on this node',
      read: () => liveView.streams.counts().viewers,
    });
    scrapeGauge(metrics, app.log, {
      name: 'overlook_media_jobs_queued',
      help: `Media hub renders waiting, across the nodes (counted up to ${QUEUE_COUNT_CAP})`,
      read: () => mediaJobs.queued(QUEUE_COUNT_CAP),
    });
    scrapeGauge(metrics, app.log, {
      name: 'overlook_media_jobs_running',
      help: 'Media hub renders running on this node',
      read: () => mediaJobs.rendering,
    });
    scrapeGauge(metrics, app.log, {
      name: 'overlook_work_leases',
      help: 'Leases on background work this node holds, by kind',
      labelNames: ['kind'],
      read: () => {
        const counts = new Map<string, number>(WORK_KINDS.map((k) => [k, 0]));
        for (const name of workLeases.heldWith('')) {
          const kind = name.slice(0, name.indexOf(':'));
          const key = counts.has(kind) ? kind : 'other';
          counts.set(key, (counts.get(key) ?? 0) + 1);
        }
        return [...counts].map(([kind, value]) => ({ labels: { kind }, value }));
      },
    });
    registerMetricsRoute(app, { access: publicRoute() });
  },
);
