// What a camera runs in memory: its live stream, stopped when its connection changes and when it is
// deleted. What is cached about it goes by forgetting its `camera` and `camera-stream` facts where the
// change is made (docs/architecture.md, Caches).
import type { LiveViewService } from '../live-view/index.js';

export class CameraTeardown {
  constructor(private readonly deps: { liveView: LiveViewService }) {}

  /** Stops the camera's live stream (ffmpeg). */
  async stop(exid: string): Promise<void> {
    await this.deps.liveView.stopStream(exid);
  }
}
