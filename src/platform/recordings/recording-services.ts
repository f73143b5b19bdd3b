// Builds the writing side of cloud recordings from the platform's services: the settings service,
// the snapshot writer shared by the recorder loop and "capture now", retention and the loop itself.
// Storage and index are read from `platform` at call time, so they are the app's own instances.
import type { FastifyBaseLogger } from 'fastify';
import type { PlatformConfig } from '../../lib/config.js';
import type { Db } from '../../lib/db/index.js';
import type { CamerasService } from '../cameras/cameras-service.js';
import type { CameraConnections } from '../cameras/connection/connections.js';
import type { ObjectStore } from '../storage/object-store.js';
import { SnapshotWriter } from './capture.js';
import { ManualCapture } from './manual-capture.js';
import { RecorderLoop } from './recorder-loop.js';
import { RecordingSettingsService } from './recording-settings.js';
import { RetentionJob } from './retention.js';
import type { SnapshotIndex } from './snapshot-index.js';

export interface RecordingServices {
  recordingSettings: RecordingSettingsService;
  manualCapture: ManualCapture;
  /** The cloud recorder: started with the app unless `config.recordingLoop` is false. */
  recorder: RecorderLoop;
}

export interface RecordingDeps {
  config: PlatformConfig;
  db: Db;
  cameras: CamerasService;
  connections: CameraConnections;
  storage: ObjectStore;
  snapshotIndex: SnapshotIndex;
}

export function createRecordingServices(platform: RecordingDeps, log?: FastifyBaseLogger): RecordingServices {
  const { config, db, cameras, connections } = platform;
  const writer = new SnapshotWriter(() => platform.storage, () => platform.snapshotIndex);
  const retention = new RetentionJob(db, () => platform.storage, () => platform.snapshotIndex, log);
  const recorder = new RecorderLoop({ db, connections, writer, retention, log }, { concurrency: config.recordingConcurrency });
  const recordingSettings = new RecordingSettingsService(db, cameras);
  recordingSettings.onChange = () => recorder.invalidate();
  return { recordingSettings, manualCapture: new ManualCapture(cameras, connections, writer, config.publicUrl), recorder };
}
