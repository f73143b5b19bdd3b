// Cameras: their records and the connections to them (simulated, HTTP, ONVIF), PTZ control and the
// read-only ONVIF passthrough, which both act through a camera's connection.
import { OutboundGuard } from '../../lib/net/outbound-guard.js';
import { defineFeature } from '../plugins/feature.js';
import { useCameraCredentialSealing } from './camera-credentials.js';
import { sealStoredCameraPasswords } from './seal-stored-camera-passwords.js';
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
  needs: ['config', 'db', 'caches', 'secrets', 'outbox'],
  offers: ['connections', 'cameras', 'ptz', 'onvif'],
  build: async ({ config, db, caches, secrets, outbox }, app) => {
    // Camera passwords are sealed in the database; those stored before are sealed now.
    useCameraCredentialSealing(db, secrets);
    const sealed = await sealStoredCameraPasswords(db);
    if (sealed > 0) app.log.info({ sealed }, 'cameras: sealed stored camera passwords');
    const guard = new OutboundGuard(config.outbound);
    // The port really listened on is known only now (tests and `--port 0` pick a free one).
    app.addHook('onListen', async function () {
      const addr = this.server.address();
      if (addr && typeof addr === 'object') guard.addOwn({ host: addr.address, port: addr.port });
    });
    const connections = new CameraConnections(db, caches, guard, config.cameraTimeoutMs);
    app.addHook('onClose', () => connections.close());
    const cameras = new CamerasService(db, caches, connections, outbox);
    return { connections, cameras, ptz: new PtzService(cameras, connections), onvif: new OnvifPassthroughService(cameras, connections) };
  },
});
