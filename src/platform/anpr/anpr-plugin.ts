// ANPR: plate events of cameras, their images and watch lists, and the per-camera ingestion tokens
// cameras push events with (the access layer's verifier for ingestion routes).
import { defineFeature } from '../plugins/feature.js';
import { AnprService } from './anpr-service.js';
import { IngestionTokens } from './ingestion-tokens.js';

declare module '../plugins/feature.js' {
  interface PlatformServices {
    anpr: AnprService;
    ingestionTokens: IngestionTokens;
  }
}

export const anprFeature = defineFeature({
  name: 'anpr',
  needs: ['config', 'db', 'storage', 'cameras', 'deletionHooks', 'outbox'],
  offers: ['anpr', 'ingestionTokens'],
  build: ({ config, db, storage, cameras, deletionHooks, outbox }) => {
    const anpr = new AnprService(db, config, { storage, cameras, outbox });
    deletionHooks.onCameraDelete('plate images', async (camera) => {
      await anpr.removeCameraObjects(camera.id);
    });
    return { anpr, ingestionTokens: new IngestionTokens(db) };
  },
});
