// Finds the connection for a camera row: the simulated camera or a real IP camera. ONVIF sessions
// (clock offset and service addresses, three exchanges to open) are kept for a short while per
// address and credentials, so a burst of PTZ calls does not reopen one each time; a call that fails
// on one forgets it (docs/architecture.md, Caches).
import { createHash } from 'node:crypto';
import type { Cache, CacheFact, CacheRegistry } from '../../../lib/cache/index.js';
import type { PlatformDb } from '../../database.js';
import type { OutboundGuard } from '../../../lib/net/outbound-guard.js';
import { guardedDispatcher } from '../../../lib/net/guarded-http.js';
import type { Agent } from 'undici';
import type { CamerasTable } from '../cameras-tables.js';
import type { CameraConnection, ConnectionDetails } from './camera-connection.js';
import { IpCamera } from './ip-camera.js';
import { OnvifClient } from '../onvif/onvif-client.js';
import { DEFAULT_SIM_STATE, SimulatedCamera, type SimState } from './simulated-camera.js';

const SESSION_TTL_MS = 60_000;
const MAX_SESSIONS = 1000;

const sessionKey = (d: ConnectionDetails) => JSON.stringify([d.onvif_url, d.username ?? '', d.password ?? '']);
/** The session as a fact: a hash, so no credentials leave this process when forgets are passed on. */
const sessionFact = (key: string): CacheFact => ({ kind: 'onvif-session', id: createHash('sha256').update(key).digest('base64url').slice(0, 22) });

export interface ConnectHooks {
  /** Persists the simulated camera's state after a PTZ change. */
  saveSimState?: (state: SimState) => Promise<void>;
}

export class CameraConnections {
  private readonly sessions: Cache<string, OnvifClient>;
  /** HTTP to cameras: only to addresses the guard allows, to the address it checked. */
  private readonly dispatcher: Agent;

  constructor(
    readonly db: PlatformDb,
    private readonly caches: CacheRegistry,
    /** Every connection to a camera goes through it (docs/security.md, Outbound connections). */
    readonly guard: OutboundGuard,
    private readonly timeoutMs = 5000,
  ) {
    this.dispatcher = guardedDispatcher(guard, { connectTimeoutMs: timeoutMs });
    this.sessions = caches.create('cameras.onvif-sessions', { max: MAX_SESSIONS, ttlMs: SESSION_TTL_MS, facts: (key) => [sessionFact(key)] });
  }

  connect(camera: Pick<CamerasTable, 'kind' | 'name' | 'timezone' | 'connection' | 'sim_state'>, hooks: ConnectHooks = {}): CameraConnection {
    if (camera.kind === 'simulated') {
      const state: SimState = structuredClone({ ...DEFAULT_SIM_STATE, ...(JSON.parse(camera.sim_state) as Partial<SimState>) });
      return new SimulatedCamera(camera.name, camera.timezone, state, undefined, hooks.saveSimState);
    }
    const details = JSON.parse(camera.connection) as ConnectionDetails;
    return new IpCamera(details, {
      guard: this.guard,
      dispatcher: this.dispatcher,
      timeoutMs: this.timeoutMs,
      onvifSession: () => this.onvifSession(details),
      dropOnvifSession: () => this.caches.forget([sessionFact(sessionKey(details))]),
    });
  }

  /** Closes the kept HTTP connections to cameras. */
  async close(): Promise<void> {
    await this.dispatcher.close();
  }

  /** An open ONVIF session for these details, shared for a minute; a failed opening is not kept. */
  private onvifSession(d: ConnectionDetails): Promise<OnvifClient> {
    return this.sessions.load(sessionKey(d), () =>
      OnvifClient.open({ url: d.onvif_url!, username: d.username, password: d.password, timeoutMs: this.timeoutMs, guard: this.guard }),
    );
  }
}
