// Background work: the leases that make the recorder loop, retention, media renders and live streams run
// once across the nodes sharing a database, each recorded with the address of the node holding it
// (docs/deploy.md, Background work). The heartbeat runs from ready to
// close; closing releases this node's leases, after the features using them have stopped.
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { defineFeature } from '../plugins/feature.js';
import { WorkLeases } from './leases.js';

/** `http://host:port` of a listening socket; the machine's host name when it listens on every address. */
function listeningUrl(address: AddressInfo | string | null): string | null {
  if (!address || typeof address === 'string') return null;
  const host = address.address === '0.0.0.0' || address.address === '::' ? hostname() : address.address;
  return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
}

declare module '../plugins/feature.js' {
  interface PlatformServices {
    /** Leases on units of background work, held by this node (a random id per process start). */
    workLeases: WorkLeases;
  }
}

export const workFeature = defineFeature({
  name: 'work',
  needs: ['config', 'db'],
  offers: ['workLeases'],
  build: ({ config, db }, app) => {
    // Recorded with each lease, so a live view request can be passed to the node running the stream.
    const address = () => config.nodeUrl ?? listeningUrl(app.server.listening ? app.server.address() : null);
    const workLeases = new WorkLeases(db, { leaseMs: config.workLeaseSeconds * 1000, log: app.log, address });
    app.addHook('onReady', async () => workLeases.start());
    // Registered before the features that hold leases, so closed after them.
    app.addHook('onClose', async () => workLeases.stop());
    return { workLeases };
  },
});
