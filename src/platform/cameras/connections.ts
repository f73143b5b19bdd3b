// Finds the connection for a camera row: the simulated camera or a real IP camera.
import type { Db } from '../../lib/db/index.js';
import type { CamerasTable } from '../../lib/db/schema.js';
import type { CameraConnection, ConnectionDetails } from './camera-connection.js';
import { IpCamera } from './ip-camera.js';
import { DEFAULT_SIM_STATE, SimulatedCamera, type SimState } from './simulated-camera.js';

export class CameraConnections {
  constructor(readonly db: Db) {}

  connect(camera: Pick<CamerasTable, 'kind' | 'name' | 'timezone' | 'connection' | 'sim_state'>): CameraConnection {
    if (camera.kind === 'simulated') {
      const state = { ...DEFAULT_SIM_STATE, ...(JSON.parse(camera.sim_state) as Partial<SimState>) };
      return new SimulatedCamera(camera.name, camera.timezone, state);
    }
    return new IpCamera(JSON.parse(camera.connection) as ConnectionDetails);
  }
}
