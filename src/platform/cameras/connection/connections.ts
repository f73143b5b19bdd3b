// Finds the connection for a camera row: the simulated camera or a real IP camera. ONVIF sessions
// (clock offset and service addresses, three exchanges to open) are kept for a short while per
// address and credentials, so a burst of PTZ calls does not reopen one each time.
import type { Db } from '../../../lib/db/index.js';
import type { CamerasTable } from '../../../lib/db/schema.js';
import type { CameraConnection, ConnectionDetails } from './camera-connection.js';
import { IpCamera } from './ip-camera.js';
import { OnvifClient } from '../onvif/onvif-client.js';
import { DEFAULT_SIM_STATE, SimulatedCamera, type SimState } from './simulated-camera.js';

const SESSION_TTL_MS = 60_000;
const MAX_SESSIONS = 1000;

const sessionKey = (d: ConnectionDetails) => JSON.stringify([d.onvif_url, d.username ?? '', d.password ?? '']);

export interface ConnectHooks {
  /** Persists the simulated camera's state after a PTZ change. */
  saveSimState?: (state: SimState) => Promise<void>;
}

export class CameraConnections {
  private readonly sessions = new Map<string, { at: number; client: Promise<OnvifClient> }>();

  constructor(
    readonly db: Db,
    private readonly timeoutMs = 5000,
  ) {}

  connect(camera: Pick<CamerasTable, 'kind' | 'name' | 'timezone' | 'connection' | 'sim_state'>, hooks: ConnectHooks = {}): CameraConnection {
    if (camera.kind === 'simulated') {
      const state: SimState = structuredClone({ ...DEFAULT_SIM_STATE, ...(JSON.parse(camera.sim_state) as Partial<SimState>) });
      return new SimulatedCamera(camera.name, camera.timezone, state, undefined, hooks.saveSimState);
    }
    const details = JSON.parse(camera.connection) as ConnectionDetails;
    return new IpCamera(details, { timeoutMs: this.timeoutMs, onvifSession: () => this.onvifSession(details), dropOnvifSession: () => this.sessions.delete(sessionKey(details)) });
  }

  /** An open ONVIF session for these details, shared for a minute; a failed opening is not kept. */
  private onvifSession(d: ConnectionDetails): Promise<OnvifClient> {
    const key = sessionKey(d);
    const now = Date.now();
    const cached = this.sessions.get(key);
    if (cached && now - cached.at < SESSION_TTL_MS) return cached.client;
    if (this.sessions.size >= MAX_SESSIONS) this.sessions.clear();
    const client = OnvifClient.open({ url: d.onvif_url!, username: d.username, password: d.password, timeoutMs: this.timeoutMs });
    this.sessions.set(key, { at: now, client });
    client.catch(() => {
      if (this.sessions.get(key)?.client === client) this.sessions.delete(key);
    });
    return client;
  }
}
