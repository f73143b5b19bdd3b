// One interface for every kind of camera. The simulated camera and real IP cameras sit behind it;
// live view, recordings and PTZ build on the same interface.

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
}

/** Connection details a real camera is configured with. Stored server-side, never returned. */
export interface ConnectionDetails {
  snapshot_url?: string;
  rtsp_url?: string;
  onvif_url?: string;
  username?: string;
  password?: string;
}
