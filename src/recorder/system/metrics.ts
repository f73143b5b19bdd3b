// The recorder's /metrics (docs/deploy.md, Metrics): the request metrics every service has, plus its
// devices by state, the segments it has written and its WebRTC viewers, each read when scraped.
import type { FastifyInstance } from 'fastify';
import { registerMetricsRoute, scrapeCounter, scrapeGauge } from '../../lib/http/metrics.js';
import type { RecorderServices } from '../services.js';

const DEVICE_STATES = ['stopped', 'streaming', 'recording', 'failed'] as const;

export function registerRecorderMetrics(app: FastifyInstance, services: RecorderServices): void {
  const metrics = app.metrics;
  if (!metrics) return;
  scrapeGauge(metrics, app.log, {
    name: 'overlook_recorder_devices',
    help: 'Devices of the recorder, by state',
    labelNames: ['state'],
    read: async () => {
      const counts = await services.devices.countByState();
      return DEVICE_STATES.map((state) => ({ labels: { state }, value: counts.get(state) ?? 0 }));
    },
  });
  scrapeCounter(metrics, {
    name: 'overlook_recorder_segments_written_total',
    help: 'Video segments written and indexed since the recorder started',
    read: () => services.index.written,
  });
  scrapeGauge(metrics, app.log, {
    name: 'overlook_recorder_webrtc_viewers',
    help: 'WebRTC (WHEP) live viewers connected now',
    read: () => services.whep.count,
  });
  registerMetricsRoute(app, { auth: 'public' });
}
