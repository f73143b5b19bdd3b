// What connector providers may use of the rest of the platform: a narrow interface, so a provider can
// reach cameras' images, media-hub files, manual captures and notifications, and nothing else.
import type { PlatformDb } from '../../database.js';
import type { CamerasService } from '../../cameras/index.js';
import type { LiveViewService } from '../../live-view/index.js';
import type { MediaHubService } from '../../media-hub/index.js';
import type { NotificationsService } from '../../notifications/index.js';
import type { ManualCapture, SnapshotReader } from '../../recordings/index.js';

export interface ConnectorHost {
  /** For the site links and weather records the connectors keep. */
  db: PlatformDb;
  /** Base of the webhook URLs handed to providers. */
  publicUrl: string;
  /** The key sealing stored tokens and webhook secrets (the same one the framework's vault uses). */
  vaultKey: Buffer;
  cameras: Pick<CamerasService, 'row'>;
  liveView: Pick<LiveViewService, 'snapshot'>;
  snapshotReader: Pick<SnapshotReader, 'nearest' | 'latest' | 'bytes'>;
  mediaHub: Pick<MediaHubService, 'get' | 'file'>;
  manualCapture: Pick<ManualCapture, 'capture'>;
  notifications: Pick<NotificationsService, 'notify'>;
}
