// The main API's application services, built once and shared by every route through `app.platform`.
import type { FastifyBaseLogger } from 'fastify';
import type { PlatformConfig } from '../lib/config.js';
import type { Db } from '../lib/db/index.js';
import type { JwtSigner } from '../lib/auth/jwt.js';
import { AccessDirectory } from './access/directory.js';
import type { RegisteredRoute, TokenVerifier } from './access/hook.js';
import type { TokenKind } from './access/policy.js';
import { KeyStore } from './api-keys/key-store.js';
import { ApiKeysService } from './api-keys/api-keys-service.js';
import { AccessExplainer } from './api-keys/explain.js';
import { DeletionHooks } from './lifecycle/deletion-hooks.js';
import { SessionStore } from './auth/session-store.js';
import { AuditLog } from './audit/audit-log.js';
import { createAdminServices, type AdminServices } from './admin/admin-services.js';
import { LoginThrottle } from './auth/login-throttle.js';
import { NotificationsService } from './notifications/notifications-service.js';
import { CameraConnections } from './cameras/connections.js';
import { CamerasService } from './cameras/cameras-service.js';
import { PtzService } from './ptz/ptz-service.js';
import { OnvifPassthroughService } from './onvif/onvif-service.js';
import { ProjectsService } from './projects/projects-service.js';
import { MembersService } from './members/members-service.js';
import type { ObjectStore } from './storage/object-store.js';
import { AnprService } from './anpr/anpr-service.js';
import { IngestionTokens } from './anpr/ingestion-tokens.js';
import { SnapshotIndex } from './recordings/snapshot-index.js';
import { SnapshotReader } from './recordings/snapshot-reader.js';
import { createRecordingServices, type RecordingServices } from './recordings/recording-services.js';
import { createObjectStore } from './storage/create-object-store.js';
import { createLiveView } from './live-view/live-view-service.js';
import type { LiveViewService } from './live-view/live-view-service.js';

export interface PlatformServices extends RecordingServices, AdminServices {
  config: PlatformConfig;
  db: Db;
  signer: JwtSigner;
  directory: AccessDirectory;
  keys: KeyStore;
  apiKeys: ApiKeysService;
  sessions: SessionStore;
  loginThrottle: LoginThrottle;
  notifications: NotificationsService;
  connections: CameraConnections;
  cameras: CamerasService;
  projects: ProjectsService;
  members: MembersService;
  /** Pan-tilt-zoom control of simulated and ONVIF cameras. */
  ptz: PtzService;
  /** The read-only ONVIF passthrough. */
  onvif: OnvifPassthroughService;
  /** Binary objects: recorded JPEGs, plate images, rendered media. */
  storage: ObjectStore;
  /** The cloud recordings' index of stored JPEGs (written by the recorder loop, read by the recordings endpoints). */
  snapshotIndex: SnapshotIndex;
  /** The recordings read endpoints' service: frames by time, local days/hours, JPEGs, thumbnails. */
  snapshotReader: SnapshotReader;
  /** ANPR events of cameras, their plate images and the projects' watch lists. */
  anpr: AnprService;
  /** Per-camera tokens cameras and recorders push ANPR events with (the `ingestion` token verifier). */
  ingestionTokens: IngestionTokens;
  /** Live view: snapshots, on-demand HLS streams (and the media tokens that open them), stream details. */
  liveView: LiveViewService;
  /** Every route registered on the app with its access policy: the scope map is derived from it. */
  routes: RegisteredRoute[];
  /** Answers what the access layer would decide for a key on a request (the key page's “test this key”). */
  explainer: AccessExplainer;
  /** Verifiers of the purpose-bound tokens (media, ingestion), set by the features that issue them. */
  tokenVerifiers: Partial<Record<TokenKind, TokenVerifier>>;
  /** What each feature removes (stored objects) before a camera or project row is deleted. */
  deletionHooks: DeletionHooks;
}

declare module 'fastify' {
  interface FastifyInstance {
    platform: PlatformServices;
  }
}

/** Stored objects of a camera that its row's cascade cannot remove: recorded frames and plate images. */
function registerCameraObjectRemoval(hooks: DeletionHooks, s: Pick<PlatformServices, 'snapshotIndex' | 'storage' | 'anpr'>): void {
  hooks.onCameraDelete('recorded frames', async (camera) => {
    const end = new Date('9999-12-31T00:00:00Z');
    for (;;) {
      const batch = await s.snapshotIndex.expiredBefore(camera.id, end, 500);
      if (batch.length === 0) return;
      await s.storage.delete(batch.map((b) => b.objectKey));
      await s.snapshotIndex.remove(camera.id, batch.map((b) => b.takenAt));
    }
  });
  hooks.onCameraDelete('plate images', async (camera) => {
    await s.anpr.removeCameraObjects(camera.id);
  });
}

export function createServices(config: PlatformConfig, db: Db, signer: JwtSigner, log: FastifyBaseLogger): PlatformServices {
  const directory = new AccessDirectory(db);
  const routes: RegisteredRoute[] = [];
  const keys = new KeyStore(db, log);
  const sessions = new SessionStore(db, signer, config.sessionDays, log);
  const audit = new AuditLog(db, log);
  const connections = new CameraConnections(db, config.cameraTimeoutMs);
  const notifications = new NotificationsService(db);
  const members = new MembersService(db, directory, notifications);
  members.onMembershipRemoved = (userId) => keys.forgetUser(userId);
  members.audit = audit;
  const cameras = new CamerasService(db, directory, connections);
  const ingestionTokens = new IngestionTokens(db);
  const { liveView, mediaTokens } = createLiveView(config, signer, log, () => base);
  const base: Omit<PlatformServices, 'snapshotReader' | keyof RecordingServices> = {
    config,
    db,
    signer,
    directory,
    keys,
    apiKeys: new ApiKeysService(db, keys, audit),
    sessions,
    loginThrottle: new LoginThrottle(config),
    notifications,
    connections,
    cameras,
    ptz: new PtzService(cameras, connections),
    onvif: new OnvifPassthroughService(cameras, connections),
    projects: new ProjectsService(db, directory),
    members,
    storage: createObjectStore(config.storage, config.dataDir),
    snapshotIndex: new SnapshotIndex(db),
    // Reads the app's storage and cameras at call time, like the snapshot reader.
    anpr: new AnprService(db, config, () => base),
    ingestionTokens,
    liveView,
    routes,
    explainer: new AccessExplainer(routes, directory),
    ...createAdminServices(config, db, { sessions, keys, directory, audit }),
    tokenVerifiers: { ingestion: ingestionTokens.verifier, media: mediaTokens.verifier() },
    deletionHooks: new DeletionHooks(),
  };
  registerCameraObjectRemoval(base.deletionHooks, base);
  // Built on the finished object: it reads `storage` and `cameras` from it at call time.
  return Object.assign(base, { snapshotReader: new SnapshotReader(base), ...createRecordingServices(base, log) });
}
