// ANPR: plate events of cameras, their images and watch lists, and the per-camera ingestion tokens
// cameras push events with (the access layer's verifier for ingestion routes), and what the gate report
// keeps: corrections of misread plates and gate cameras' roles.
import { defineFeature } from '../plugins/feature.js';
import { AnprService } from './anpr-service.js';
import { IngestionTokens } from './ingestion-tokens.js';
import { GateService } from './gate-service.js';

declare module '../plugins/feature.js' {
  interface PlatformServices {
    anpr: AnprService;
    ingestionTokens: IngestionTokens;
    /** Plate corrections and gate cameras, for the gate report. */
    anprGates: GateService;
  }
}

export const anprFeature = defineFeature({
  name: 'anpr',
  needs: ['config', 'db', 'storage', 'cameras', 'deletionHooks', 'outbox'],
  offers: ['anpr', 'ingestionTokens', 'anprGates'],
  build: ({ config, db, storage, cameras, deletionHooks, outbox }) => {
    const anpr = new AnprService(db, config, { storage, cameras, outbox });
    deletionHooks.onCameraDelete('plate images', async (camera) => {
      await anpr.removeCameraObjects(camera.id);
    });
    return { anpr, ingestionTokens: new IngestionTokens(db), anprGates: new GateService(db, cameras) };
  },
});
