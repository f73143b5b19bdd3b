// Video walls: a project's grids of camera tiles.
import { defineFeature } from '../plugins/feature.js';
import { VideoWallsService } from './video-walls-service.js';

declare module '../plugins/feature.js' {
  interface PlatformServices {
    videoWalls: VideoWallsService;
  }
}

export const videoWallsFeature = defineFeature({
  name: 'video-walls',
  needs: ['db'],
  offers: ['videoWalls'],
  build: ({ db }) => ({ videoWalls: new VideoWallsService(db) }),
});
