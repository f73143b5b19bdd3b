// Tells other features about every frame the recordings store (the recorder loop, "capture now", and
// whatever else writes through the SnapshotWriter), after its bytes and index row are in place. The
// picture checks listen here (docs/analysis.md). A listener is called on the storing request's path,
// so it must only queue its work and return.
import type { FastifyBaseLogger } from 'fastify';

export interface StoredFrame {
  cameraId: string;
  takenAt: Date;
  /** Where the bytes are in the object store. */
  objectKey: string;
  jpeg: Buffer;
}

export type StoredFrameListener = (frame: StoredFrame) => void;

export class StoredFrames {
  private readonly listeners: StoredFrameListener[] = [];

  constructor(private readonly log: FastifyBaseLogger) {}

  onStored(listener: StoredFrameListener): void {
    this.listeners.push(listener);
  }

  /** Called by the writer once a frame is stored; a failing listener is logged and never fails the store. */
  stored(frame: StoredFrame): void {
    for (const listener of this.listeners) {
      try {
        listener(frame);
      } catch (err) {
        this.log.error({ err, camera_id: frame.cameraId }, 'a stored-frame listener failed');
      }
    }
  }
}
