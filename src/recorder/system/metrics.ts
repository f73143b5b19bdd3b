// The recorder's /metrics (docs/deploy.md, Metrics): the request metrics every service has, plus its
// devices by state, the segments it has written and its WebRTC viewers, each read when scraped.
import type { FastifyInstance } from 'fastify';
import { registerMetricsRoute, scrapeCounter, scrapeGauge } from '../../lib/http/metrics.js';

const DEVICE_STATES = ['stopped', 'streaming', 'recording', 'failed'] as const;

/** What the recorder's own metrics read when scraped, wired by app.ts from devices, recordings and live. */
export interface RecorderReadings {
  devicesByState(): Promise<Map<string, number>>;
  segmentsWritten(): number;
  webrtcViewers(): number;
}

export function registerRecorderMetrics(app: FastifyInstance, readings: RecorderReadings): void {
  const metrics = app.metrics;
  if (!metrics) return;
  scrapeGauge(metrics, app.log, {
    name: 'overlook_recorder_devices',
    help: 'Devices of the recorder, by state',
    labelNames: ['state'],
    read: async () => {
      const counts = await readings.devicesByState();
      return DEVICE_STATES.map((state) => ({ labels: { state }, value: counts.get(state) ?? 0 }));
    },
  });
  scrapeCounter(metrics, {
    name: 'overlook_recorder_segments_written_total',
    help: 'Video segments written and indexed since the recorder started',
    read: () => readings.segmentsWritten(),
  });
  scrapeGauge(metrics, app.log, {
    name: 'overlook_recorder_webrtc_viewers',
    help: 'WebRTC (WHEP) live viewers connected now',
    read: () => readings.webrtcViewers(),
  });
  registerMetricsRoute(app, { auth: 'public' });
}
