// One interface for every kind of camera. The simulated camera and real IP cameras sit behind it;
// live view, recordings and PTZ build on the same interface.
import type { PtzControl } from '../ptz/ptz-control.js';

export interface Snapshot {
  jpeg: Buffer;
  takenAt: Date;
}

export interface HealthResult {
  status: 'online' | 'offline';
  checked_at: string;
  latency_ms: number;
  /** Why the camera is offline. */
  reason: string | null;
  /** Battery-powered cameras report their battery. */
  battery: { voltage: number; percentage: number } | null;
}

export interface CameraConnection {
  snapshot(): Promise<Snapshot>;
  check(): Promise<HealthResult>;
  /** Pan-tilt-zoom control; null when the camera has none (a real camera without an ONVIF address). */
  ptz(): PtzControl | null;
  /** Read-only ONVIF operations; null when the camera speaks no ONVIF. */
  onvif(): OnvifGateway | null;
}

/** ONVIF services by the short names the passthrough uses. */
export const ONVIF_SERVICES = ['device', 'media', 'media2', 'ptz', 'imaging', 'events', 'deviceio', 'analytics', 'recording', 'search', 'replay'] as const;
export type OnvifService = (typeof ONVIF_SERVICES)[number];

export interface OnvifGateway {
  /** The services the camera advertises. */
  services(): Promise<OnvifService[]>;
  /**
   * Runs one operation with simple arguments (child elements of the request) and answers the SOAP body
   * as JSON. The caller decides which operations are allowed; this only talks to the camera.
   */
  call(service: OnvifService, operation: string, args: Record<string, string>): Promise<Record<string, unknown>>;
}

/** Connection details a real camera is configured with. Stored server-side, never returned. */
export interface ConnectionDetails {
  snapshot_url?: string;
  rtsp_url?: string;
  onvif_url?: string;
  username?: string;
  password?: string;
}
