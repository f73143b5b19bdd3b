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
import { UploadQueue } from './uploads/upload-queue.js';
import { Uploader } from './uploads/uploader.js';
import { SnapshotUploads } from './uploads/snapshot-uploads.js';
import { RtpFeeds } from './live/rtp-feeds.js';
import { WhepSessions } from './live/whep-sessions.js';
import { LIVE_SEGMENT_SECONDS } from './hls/live-playlist.js';
import { RecorderSecrets } from './db/sealed-secrets.js';
import { SignInThrottle } from '../lib/auth/sign-in-throttle.js';
import { LinkStore } from './link/link-store.js';
import { Outbox } from './link/outbox.js';
import { LiveFrames } from './link/live-frames.js';
import { CloudFrames } from './link/cloud-frames.js';
import { SiteLink } from './link/site-link.js';
import { linkImage } from './link/event-image.js';
import { linkDispatcher } from './link/pairing.js';
import type { Dispatcher } from 'undici';
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
  /** What is still to be uploaded to each remote storage. */
  uploadQueue: UploadQueue;
  /** Sends the queue to the storages (started with the app, stopped when it closes). */
  uploader: Uploader;
  /** Queues snapshots for the storages that ask for them. */
  snapshotUploads: SnapshotUploads;
  /** The link to a platform (docs/recorder.md, Platform link): stored state, the outbox, the connection. */
  linkStore: LinkStore;
  outbox: Outbox;
  link: SiteLink;
  /** What the link's HTTP and WebSocket go through (the proxy, when set). */
  linkDispatcher: Dispatcher;
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
  const uploadQueue = new UploadQueue(db);
  // The storages and the uploads know each other only through these two hooks (built below).
  const uploads = {
    status: (ids: string[]) => uploadQueue.status(ids),
    storagesChanged: () => {
      uploader.storagesChanged();
      snapshotUploads.storagesChanged();
    },
  };
  const remoteStorages = new RemoteStorages(db, secrets, uploads);
  // A segment's upload rows are written in the transaction that indexes it.
  const index = new SegmentIndex(db, {
    inTransaction: async (trx, segment) => uploadQueue.addSegment(trx, await remoteStorages.takingRecordings(trx), segment),
    committed: () => uploader.wake(),
  });
  const snapshots = new Snapshots(index, config.storageRoot, tools);
  const uploader = new Uploader({
    queue: uploadQueue,
    storages: remoteStorages,
    index,
    storageRoot: config.storageRoot,
    maxBackoffMs: config.uploadRetryMaxMs,
    log,
  });
  const snapshotUploads = new SnapshotUploads({ storages: remoteStorages, devices, snapshots, queue: uploadQueue, queued: () => uploader.wake(), log });
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
  const linkStore = new LinkStore(db, secrets);
  const outbox = new Outbox(db, join(config.dataDir, 'link-outbox'), config.linkBacklogBytes, log);
  const live = new LiveFrames(config.storageRoot, snapshots, devices, manager, config.liveIdleMs);
  const dispatcher = linkDispatcher(config.proxy);
  const link = new SiteLink({
    store: linkStore,
    outbox,
    devices,
    live,
    frames: new CloudFrames({ devices, live, outbox, log }),
    dispatcher,
    version,
    log,
    maxBackoffMs: config.linkRetryMaxMs,
    silenceMs: config.linkSilenceMs,
  });
  // Events of shared devices go to the platform through the outbox, as frames do; a plate read with its crop.
  events.onIngested(async (e) => {
    if (!(await link.shares(e.deviceId))) return;
    const image = e.image ? await linkImage(e.image, log) : null;
    await outbox.addEvent(e.deviceId, e.kind.slice(0, 50), e.at, e.data, image);
  });
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
    snapshots,
    footage: new FootageExporter(index, config.storageRoot, tools),
    events,
    remoteStorages,
    uploadQueue,
    uploader,
    snapshotUploads,
    linkStore,
    outbox,
    link,
    linkDispatcher: dispatcher,
    plates,
  };
}
