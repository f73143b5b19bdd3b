// Third-party connectors (docs/connectors.md): connections with sealed tokens, provider clients, and the
// narrow host interface providers get of the rest of the platform.
import { defineFeature } from '../plugins/feature.js';
import type { ConnectorHost } from './framework/connector-host.js';
import { ConnectorsService } from './framework/connectors-service.js';
import { loadVaultKey } from './framework/token-vault.js';
import { loadSecretKey } from '../secrets/index.js';
import { CONNECTOR_PROVIDERS } from './providers.js';

declare module '../plugins/feature.js' {
  interface PlatformServices {
    connectors: ConnectorsService;
    connectorHost: ConnectorHost;
  }
}

export const connectorsFeature = defineFeature({
  name: 'connectors',
  needs: ['config', 'db', 'secrets', 'cameras', 'liveView', 'snapshotReader', 'mediaHub', 'manualCapture', 'notifications'],
  offers: ['connectors', 'connectorHost'],
  build: async ({ config, db, secrets, cameras, liveView, snapshotReader, mediaHub, manualCapture, notifications }) => {
    const vaultKey = await loadVaultKey(secrets, () => loadSecretKey({ secretKeyBase64: config.secretKey, dataDir: config.dataDir }).key);
    const connectors = new ConnectorsService(db, CONNECTOR_PROVIDERS, {
      publicUrl: config.publicUrl,
      env: config.connectors.env,
      timeoutMs: config.connectors.timeoutMs,
      vaultKey,
    });
    const connectorHost: ConnectorHost = {
      db,
      publicUrl: config.publicUrl,
      vaultKey,
      cameras,
      liveView,
      snapshotReader,
      mediaHub,
      manualCapture,
      notifications,
    };
    return { connectors, connectorHost };
  },
});
