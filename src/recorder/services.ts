// Everything the recorder's routes use, built once per process and reachable as `app.recorder`.
import type { FastifyBaseLogger } from 'fastify';
import type { RecorderConfig } from './config.js';
import type { RecorderDb } from './db/recorder-db.js';
import { CacheRegistry } from '../lib/cache/index.js';
import { AccessTokens } from './auth/access-tokens.js';
import { RecorderUsers } from './users/users-service.js';
import { WebhookTokens } from './events/webhook-tokens.js';
import { DevicesService } from './devices/devices-service.js';
import { SegmentIndex } from './recordings/segment-index.js';
import { RecordingManager } from './recording/recording-manager.js';
import { Snapshots } from './snapshots/snapshots.js';
import { FootageExporter } from './footage/footage-export.js';
import { EventsService } from './events/events-service.js';
import { RemoteStorages } from './remote-storages/remote-storages-service.js';
import { RtpFeeds } from './live/rtp-feeds.js';
import { WhepSessions } from './live/whep-sessions.js';
import { LIVE_SEGMENT_SECONDS } from './hls/live-playlist.js';
import { RecorderSecrets } from './db/sealed-secrets.js';
import { SignInThrottle } from '../lib/auth/sign-in-throttle.js';
import { join } from 'node:path';
import { PlateReaders } from './plates/plate-readers.js';

export interface RecorderServices {
  config: RecorderConfig;
  db: RecorderDb;
  version: string;
  startedAt: number;
  /** The recorder's in-memory caches, and the one way to forget what they hold (docs/architecture.md, Caches). */
  caches: CacheRegistry;
  tokens: AccessTokens;
  /** Failed sign-ins, counted in memory (one process). */
  loginThrottle: SignInThrottle;
  /** Seals camera credentials and remote-storage secrets. */
  secrets: RecorderSecrets;
  users: RecorderUsers;
  webhooks: WebhookTokens;
  devices: DevicesService;
  index: SegmentIndex;
  manager: RecordingManager;
  /** Each running device's video as RTP, and the WebRTC viewers it is forwarded to. */
  rtp: RtpFeeds;
  whep: WhepSessions;
  snapshots: Snapshots;
  footage: FootageExporter;
  events: EventsService;
  remoteStorages: RemoteStorages;
  /** Number-plate reading on the devices that have it switched on. */
  plates: PlateReaders;
}

declare module 'fastify' {
  interface FastifyInstance {
    recorder: RecorderServices;
  }
}

export function createRecorderServices(config: RecorderConfig, db: RecorderDb, log: FastifyBaseLogger, version: string): RecorderServices {
  const tools = { ffmpeg: config.ffmpegPath, ffprobe: config.ffprobePath };
  const caches = new CacheRegistry();
  const tokens = new AccessTokens(db, config.tokenDays, caches);
  const secrets = new RecorderSecrets(config.secretKey);
  const devices = new DevicesService(db, config.ffprobePath, config.mediaDir, secrets);
  const index = new SegmentIndex(db);
  const rtp = new RtpFeeds();
  const loadOne = async (id: string) => {
    if (!(await devices.exists(id))) return null;
    return { device: await devices.get(id), source: await devices.source(id) };
  };
  const manager = new RecordingManager(
    {
      index,
      storageRoot: config.storageRoot,
      ffmpeg: config.ffmpegPath,
      segmentSeconds: config.segmentSeconds,
      live: config.liveView ? { segmentSeconds: LIVE_SEGMENT_SECONDS, listSize: config.liveWindow } : undefined,
      rtp: config.liveView ? rtp : undefined,
      ffprobe: config.ffprobePath,
      setState: (id, s, r) => devices.setState(id, s, r),
      log,
    },
    async () => Promise.all((await devices.list()).map(async (device) => ({ device, source: await devices.source(device.id) }))),
    loadOne,
  );
  const events = new EventsService(db, config.storageRoot);
  const plates = new PlateReaders(
    { ffmpeg: config.ffmpegPath, workRoot: join(config.dataDir, 'plates'), log, store: (id, e) => events.ingestLpr(id, e) },
    async () => (await devices.list()).map((d) => d.id),
    async (id) => ((await devices.exists(id)) ? { source: await devices.source(id), config: await devices.plateReader(id) } : null),
  );
  return {
    config,
    db,
    version,
    startedAt: Date.now(),
    caches,
    tokens,
    loginThrottle: new SignInThrottle(config),
    secrets,
    users: new RecorderUsers(db, caches),
    webhooks: new WebhookTokens(db),
    devices,
    index,
    manager,
    rtp,
    whep: new WhepSessions(rtp),
    snapshots: new Snapshots(index, config.storageRoot, tools),
    footage: new FootageExporter(index, config.storageRoot, tools),
    events,
    remoteStorages: new RemoteStorages(db, secrets),
    plates,
  };
}
