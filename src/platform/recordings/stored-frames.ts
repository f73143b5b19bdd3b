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
/** Told after retention removed a camera's frames taken before `cutoff`; awaited, so it finishes within the retention run. */
export type ExpiredFramesListener = (cameraId: string, cutoff: Date) => Promise<void>;

export class StoredFrames {
  private readonly listeners: StoredFrameListener[] = [];
  private readonly expiredListeners: ExpiredFramesListener[] = [];

  constructor(private readonly log: FastifyBaseLogger) {}

  onStored(listener: StoredFrameListener): void {
    this.listeners.push(listener);
  }

  /** What was kept about a camera's frames (the picture checks' activity) goes when retention removes them. */
  onExpired(listener: ExpiredFramesListener): void {
    this.expiredListeners.push(listener);
  }

  /** Called by retention after it removed a camera's frames taken before `cutoff`; a failing listener is logged. */
  async expired(cameraId: string, cutoff: Date): Promise<void> {
    for (const listener of this.expiredListeners) {
      try {
        await listener(cameraId, cutoff);
      } catch (err) {
        this.log.error({ err, camera_id: cameraId }, 'an expired-frames listener failed');
      }
    }
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
