// Cloud recordings: the snapshot index and its reader, recording settings, "capture now", retention and
// the recorder loop, which runs from ready to close unless the configuration turns it off, sharing the
// cameras and retention with the other nodes by lease (docs/deploy.md, Background work).
import { defineFeature } from '../plugins/feature.js';
import { SnapshotWriter } from './capture.js';
import { ManualCapture } from './manual-capture.js';
import { RecorderLoop } from './recorder-loop.js';
import { RecordingSettingsService } from './recording-settings.js';
import { RetentionJob } from './retention.js';
import { SnapshotIndex } from './snapshot-index-repository.js';
import { SnapshotReader } from './snapshot-reader.js';
import { StoredFrames } from './stored-frames.js';

declare module '../plugins/feature.js' {
  interface PlatformServices {
    /** The index of stored JPEGs (written by the recorder loop, read by the recordings endpoints). */
    snapshotIndex: SnapshotIndex;
    /** Frames by time, local days/hours, JPEGs, thumbnails. */
    snapshotReader: SnapshotReader;
    /** Stores JPEGs into the object store and the index (the recorder loop, capture now, the site link). */
    snapshotWriter: SnapshotWriter;
    recordingSettings: RecordingSettingsService;
    manualCapture: ManualCapture;
    /** The cloud recorder. */
    recorder: RecorderLoop;
    /** Every frame stored, as it is stored (for the picture checks). */
    storedFrames: StoredFrames;
  }
}

export const recordingsFeature = defineFeature({
  name: 'recordings',
  needs: ['config', 'db', 'storage', 'cameras', 'connections', 'deletionHooks', 'caches', 'workLeases'],
  offers: ['snapshotIndex', 'snapshotReader', 'snapshotWriter', 'recordingSettings', 'manualCapture', 'recorder', 'storedFrames'],
  build: ({ config, db, storage, cameras, connections, deletionHooks, caches, workLeases }, app) => {
    const snapshotIndex = new SnapshotIndex(db, caches);
    const storedFrames = new StoredFrames(app.log);
    const writer = new SnapshotWriter(storage, snapshotIndex, storedFrames);
    const retention = new RetentionJob(db, storage, snapshotIndex, app.log, storedFrames);
    // Cameras and retention are shared with the other nodes by lease; the camera list is reloaded at
    // least once per lease renewal, so a dead node's cameras are taken soon after its leases expire.
    const recorder = new RecorderLoop(
      { db, connections, writer, retention, log: app.log, leases: workLeases },
      { concurrency: config.recordingConcurrency, refreshMs: Math.min(5_000, workLeases.renewMs) },
    );
    // A camera's recorded frames are objects its row's cascade cannot remove.
    deletionHooks.onCameraDelete('recorded frames', async (camera) => {
      const end = new Date('9999-12-31T00:00:00Z');
      for (;;) {
        const batch = await snapshotIndex.expiredBefore(camera.id, end, 500);
        if (batch.length === 0) return;
        await storage.delete(batch.map((b) => b.objectKey));
        await snapshotIndex.remove(
          camera.id,
          batch.map((b) => b.takenAt),
        );
      }
    });
    if (config.recordingLoop) app.addHook('onReady', async () => recorder.start());
    app.addHook('onClose', async () => recorder.stop());
    return {
      snapshotIndex,
      snapshotWriter: writer,
      snapshotReader: new SnapshotReader({ cameras, snapshotIndex, storage }, caches),
      recordingSettings: new RecordingSettingsService(db, cameras, () => recorder.invalidate()),
      manualCapture: new ManualCapture(cameras, connections, writer, config.publicUrl),
      recorder,
      storedFrames,
    };
  },
});
