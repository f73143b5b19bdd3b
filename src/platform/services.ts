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
import { CameraConnections } from './cameras/connection/connections.js';
import { CamerasService } from './cameras/cameras-service.js';
import { PtzService } from './cameras/ptz/ptz-service.js';
import { OnvifPassthroughService } from './cameras/onvif/onvif-service.js';
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
import { createSettingsServices, type SettingsServices } from './settings/settings-services.js';
import { createMediaHubServices, type MediaHubServices } from './media-hub/media-hub-services.js';
import type { LiveViewService } from './live-view/live-view-service.js';
import { createBimServices, type BimServices } from './bim/bim-services.js';
import { WeatherService } from './weather/weather-service.js';
import { VideoWallsService } from './video-walls/video-walls-service.js';
import { CommentsService } from './comments/comments-service.js';
import { ConnectorsService } from './connectors/framework/connectors-service.js';
import { loadVaultKey } from './connectors/framework/token-vault.js';
import { CONNECTOR_PROVIDERS } from './connectors/providers.js';

export interface PlatformServices extends RecordingServices, AdminServices, SettingsServices, MediaHubServices {
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
  /** Third-party connectors (Procore, ACC, Aconex…): connections with sealed tokens, provider clients. */
  connectors: ConnectorsService;
  /** BIM of cameras: model renders by date, pending renders, camera parameters, overlay layers. */
  bim: BimServices;
  /** Weather at a project's site from the weather provider, cached in the database. */
  weather: WeatherService;
  /** Video walls: a project's grids of camera tiles. */
  videoWalls: VideoWallsService;
  /** Comments on a project's cameras, with mentions that notify members. */
  comments: CommentsService;
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
  const base: Omit<PlatformServices, 'snapshotReader' | 'bim' | keyof RecordingServices | keyof SettingsServices | keyof MediaHubServices> = {
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
    connectors: new ConnectorsService(db, CONNECTOR_PROVIDERS, {
      publicUrl: config.publicUrl,
      env: config.connectors.env,
      timeoutMs: config.connectors.timeoutMs,
      vaultKey: loadVaultKey({ secretKeyBase64: config.connectors.secretKey, dataDir: config.dataDir }),
    }),
    weather: new WeatherService(db, config),
    videoWalls: new VideoWallsService(db),
    comments: new CommentsService(db, notifications),
  };
  registerCameraObjectRemoval(base.deletionHooks, base);
  // Project and camera settings, and the deletion of both (which runs every feature's deletion hooks).
  const settings = createSettingsServices({
    config,
    db,
    directory,
    audit,
    notifications,
    deletionHooks: base.deletionHooks,
    connections,
    forgetKeysOf: (userId) => keys.forgetUser(userId),
    app: () => base as unknown as PlatformServices,
  });
  // Built on the finished object: it reads `storage` and `cameras` from it at call time.
  return Object.assign(base, { snapshotReader: new SnapshotReader(base), bim: createBimServices(config, db, base.deletionHooks, () => base), ...createRecordingServices(base, log), ...settings, ...createMediaHubServices(config, db, base, log) });
}
