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
import { SessionStore } from './auth/session-store.js';
import { LoginThrottle } from './auth/login-throttle.js';
import { NotificationsService } from './notifications/notifications-service.js';
import { CameraConnections } from './cameras/connections.js';
import { CamerasService } from './cameras/cameras-service.js';
import { ProjectsService } from './projects/projects-service.js';
import { MembersService } from './members/members-service.js';
import type { ObjectStore } from './storage/object-store.js';
import { FsObjectStore } from './storage/fs-object-store.js';
import { join } from 'node:path';

export interface PlatformServices {
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
  /** Binary objects: recorded JPEGs, plate images, rendered media. */
  storage: ObjectStore;
  /** Every route registered on the app with its access policy: the scope map is derived from it. */
  routes: RegisteredRoute[];
  /** Answers what the access layer would decide for a key on a request (the key page's “test this key”). */
  explainer: AccessExplainer;
  /** Verifiers of the purpose-bound tokens (media, ingestion), set by the features that issue them. */
  tokenVerifiers: Partial<Record<TokenKind, TokenVerifier>>;
}

declare module 'fastify' {
  interface FastifyInstance {
    platform: PlatformServices;
  }
}

export function createServices(config: PlatformConfig, db: Db, signer: JwtSigner, log: FastifyBaseLogger): PlatformServices {
  const directory = new AccessDirectory(db);
  const routes: RegisteredRoute[] = [];
  const keys = new KeyStore(db, log);
  const connections = new CameraConnections(db);
  const notifications = new NotificationsService(db);
  const members = new MembersService(db, directory, notifications);
  members.onMembershipRemoved = (userId) => keys.forgetUser(userId);
  return {
    config,
    db,
    signer,
    directory,
    keys,
    apiKeys: new ApiKeysService(db, keys),
    sessions: new SessionStore(db, signer, config.sessionDays, log),
    loginThrottle: new LoginThrottle(config),
    notifications,
    connections,
    cameras: new CamerasService(db, directory, connections),
    projects: new ProjectsService(db, directory),
    members,
    storage: new FsObjectStore(join(config.dataDir, 'objects')),
    routes,
    explainer: new AccessExplainer(routes, directory),
    tokenVerifiers: {},
  };
}
