// What a camera leaves in memory: the cameras' row cache, the access directory's entry, a running live
// stream and its probe results. Dropped when its connection changes and when it is deleted.
import type { CamerasService } from './cameras-service.js';
import type { LiveViewService } from '../live-view/live-view-service.js';

export class CameraTeardown {
  constructor(private readonly platform: () => { cameras: CamerasService; liveView: LiveViewService }) {}

  /** Stops the camera's live stream (ffmpeg) and forgets its stream details. */
  async stop(exid: string): Promise<void> {
    await this.platform().liveView.forgetCamera(exid);
  }

  /** Drops the cached row, record, health and directory entry. */
  forget(exid: string): void {
    this.platform().cameras.forget(exid);
  }
}
