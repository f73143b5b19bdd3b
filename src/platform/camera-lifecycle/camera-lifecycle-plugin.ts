// A camera's settings, connection changes and deletion (which stops its live stream and runs every
// feature's deletion hooks). Its own folder, above cameras, because it needs live view and recordings,
// which themselves need cameras.
import { defineFeature } from '../plugins/feature.js';
import { CameraSettingsService } from './camera-settings-service.js';
import { CameraTeardown } from './camera-teardown.js';

declare module '../plugins/feature.js' {
  interface PlatformServices {
    /** Stops a camera's live stream. */
    cameraTeardown: CameraTeardown;
    /** Camera settings, connection, recording settings and camera deletion. */
    cameraSettings: CameraSettingsService;
  }
}

export const cameraLifecycleFeature = defineFeature({
  name: 'camera-lifecycle',
  needs: ['db', 'cameras', 'connections', 'liveView', 'recordingSettings', 'audit', 'deletionHooks', 'caches'],
  offers: ['cameraTeardown', 'cameraSettings'],
  build: ({ db, cameras, connections, liveView, recordingSettings, audit, deletionHooks, caches }) => {
    const cameraTeardown = new CameraTeardown({ liveView });
    return {
      cameraTeardown,
      cameraSettings: new CameraSettingsService(db, cameras, connections, recordingSettings, audit, deletionHooks, cameraTeardown, caches),
    };
  },
});
