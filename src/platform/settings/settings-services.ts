// Builds the project:settings services from the app's and registers the project deletion hook for the
// images they store (logos, thumbnail).
import type { PlatformConfig } from '../../lib/config.js';
import type { Db } from '../../lib/db/index.js';
import type { AccessDirectory } from '../access/directory.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { CamerasService } from '../cameras/cameras-service.js';
import type { CameraConnections } from '../cameras/connection/connections.js';
import type { DeletionHooks } from '../lifecycle/deletion-hooks.js';
import type { LiveViewService } from '../live-view/live-view-service.js';
import type { NotificationsService } from '../notifications/notifications-service.js';
import type { RecordingSettingsService } from '../recordings/recording-settings.js';
import type { SnapshotReader } from '../recordings/snapshot-reader.js';
import type { ObjectStore } from '../storage/object-store.js';
import { CameraSettingsService } from '../cameras/camera-settings-service.js';
import { CameraTeardown } from '../cameras/camera-teardown.js';
import { ProjectImagesService } from '../projects/project-images-service.js';
import { ProjectSettingsService } from '../projects/project-settings-service.js';

export interface SettingsServices {
  /** Project update, transfer, deletion, leaving, the role ladder and the settings history. */
  projectSettings: ProjectSettingsService;
  /** Project logos and the project thumbnail. */
  projectImages: ProjectImagesService;
  /** Camera settings, connection, recording settings and camera deletion. */
  cameraSettings: CameraSettingsService;
}

interface Deps {
  config: PlatformConfig;
  db: Db;
  directory: AccessDirectory;
  audit: AuditLog;
  notifications: NotificationsService;
  deletionHooks: DeletionHooks;
  connections: CameraConnections;
  forgetKeysOf: (userId: string) => void;
  /** Read at call time: the services object is still being built. */
  app: () => { cameras: CamerasService; liveView: LiveViewService; storage: ObjectStore; snapshotReader: SnapshotReader; recordingSettings: RecordingSettingsService };
}

export function createSettingsServices(d: Deps): SettingsServices {
  const teardown = new CameraTeardown(d.app);
  const projectImages = new ProjectImagesService(d.db, d.config, d.app);
  d.deletionHooks.onProjectDelete('project logos and thumbnail', (project) => projectImages.removeProjectObjects(project.id));
  const cameras = { row: (exid: string) => d.app().cameras.row(exid) } as CamerasService;
  return {
    projectImages,
    projectSettings: new ProjectSettingsService(d.db, d.directory, d.audit, d.notifications, d.deletionHooks, teardown, d.forgetKeysOf),
    cameraSettings: new CameraSettingsService(d.db, cameras, d.connections, () => d.app().recordingSettings, d.audit, d.deletionHooks, teardown),
  };
}
