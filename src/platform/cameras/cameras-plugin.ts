// Cameras: their records and the connections to them (simulated, HTTP, ONVIF), PTZ control and the
// read-only ONVIF passthrough, which both act through a camera's connection.
import { defineFeature } from '../plugins/feature.js';
import { CamerasService } from './cameras-service.js';
import { CameraConnections } from './connection/connections.js';
import { OnvifPassthroughService } from './onvif/onvif-service.js';
import { PtzService } from './ptz/ptz-service.js';

declare module '../plugins/feature.js' {
  interface PlatformServices {
    connections: CameraConnections;
    cameras: CamerasService;
    /** Pan-tilt-zoom control of simulated and ONVIF cameras. */
    ptz: PtzService;
    /** The read-only ONVIF passthrough. */
    onvif: OnvifPassthroughService;
  }
}

export const camerasFeature = defineFeature({
  name: 'cameras',
  needs: ['config', 'db', 'caches'],
  offers: ['connections', 'cameras', 'ptz', 'onvif'],
  build: ({ config, db, caches }) => {
    const connections = new CameraConnections(db, caches, config.cameraTimeoutMs);
    const cameras = new CamerasService(db, caches, connections);
    return { connections, cameras, ptz: new PtzService(cameras, connections), onvif: new OnvifPassthroughService(cameras, connections) };
  },
});
