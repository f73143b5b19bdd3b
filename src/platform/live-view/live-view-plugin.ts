// Live view: snapshots, on-demand HLS streams shared per camera (one ffmpeg per camera across the nodes,
// under the camera's `live:<exid>` work lease), and the media tokens that open them (the access layer's
// verifier for media routes).
import { join } from 'node:path';
import { defineFeature } from '../plugins/feature.js';
import { LiveStreams } from './live-streams.js';
import { LiveViewService } from './live-view-service.js';
import { MediaTokens } from './media-tokens.js';
import { StreamProbe } from './stream-probe.js';

declare module '../plugins/feature.js' {
  interface PlatformServices {
    liveView: LiveViewService;
    mediaTokens: MediaTokens;
  }
}

export const liveViewFeature = defineFeature({
  name: 'live-view',
  needs: ['config', 'signer', 'cameras', 'connections', 'directory', 'caches', 'workLeases', 'sessions', 'keys'],
  offers: ['liveView', 'mediaTokens'],
  build: ({ config, signer, cameras, connections, directory, caches, workLeases, sessions, keys }, app) => {
    // A media token holds only while what it was issued through does (docs/security.md, Revocation).
    const mediaTokens = new MediaTokens(
      signer,
      {
        sessionLive: (sessionId, userId) => sessions.isLive(sessionId, userId),
        keyLive: (keyId, userId) => keys.isLive(keyId, userId),
        seesCamera: async (userId, cameraExid) => {
          const project = await directory.projectOfCamera(cameraExid);
          return project.found && (await directory.roleOf(userId, project.id)) !== null;
        },
      },
      caches,
    );
    const streams = new LiveStreams(join(config.dataDir, 'live-hls'), config.ffmpegPath, config.hlsIdleSeconds * 1000, app.log, config.liveStreams);
    const liveView = new LiveViewService(
      config,
      cameras,
      connections,
      directory,
      mediaTokens,
      new StreamProbe(config.ffprobePath, caches),
      streams,
      workLeases,
    );
    // The streams live with the app: leftovers of a previous process are cleared on start, and every
    // ffmpeg is stopped (its folder removed) when the app closes, before the leases are released.
    app.addHook('onReady', async () => streams.start());
    app.addHook('onClose', async () => streams.close());
    return { liveView, mediaTokens };
  },
});
