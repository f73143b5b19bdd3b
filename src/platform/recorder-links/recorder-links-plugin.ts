// Site links (docs/site-link.md): the links and their pairing, this node's connected recorders (the hub),
// the linked cameras' live view through their links (given to the live view), the node relay that
// passes it between nodes, and the recorders' events. Every connection is closed when the app closes.
import { defineFeature } from '../plugins/feature.js';
import { LinkHub, type NodeIdentity } from './link-hub.js';
import { LinkedCameras } from './linked-cameras.js';
import { LinkedLiveView } from './linked-live.js';
import { NodeRelay } from './node-relay.js';
import { RecorderEvents } from './recorder-events.js';
import { RecorderLinksService } from './recorder-links-service.js';

declare module '../plugins/feature.js' {
  interface PlatformServices {
    recorderLinks: RecorderLinksService;
    /** The recorders connected to this node. */
    linkHub: LinkHub;
    recorderEvents: RecorderEvents;
    /** Linked cameras' live view, through their links (here or on the holding node). */
    linkedLive: LinkedLiveView;
    /** Signs and verifies the requests nodes pass each other for linked cameras. */
    nodeRelay: NodeRelay;
  }
}

/** How long a recorder has to answer a snapshot, playlist or segment request. */
const REQUEST_TIMEOUT_MS = 10_000;

export const recorderLinksFeature = defineFeature({
  name: 'recorder-links',
  needs: ['config', 'db', 'caches', 'cameras', 'recordingSettings', 'snapshotWriter', 'anpr', 'notifications', 'liveView', 'secrets', 'workLeases'],
  offers: ['recorderLinks', 'linkHub', 'recorderEvents', 'linkedLive', 'nodeRelay'],
  build: ({ config, db, caches, cameras, recordingSettings, snapshotWriter, anpr, notifications, liveView, secrets, workLeases }, app) => {
    const node: NodeIdentity = { nodeId: workLeases.nodeId, url: () => workLeases.address() };
    const linkedCameras = new LinkedCameras(db, cameras, notifications, app.log);
    const linkHub = new LinkHub({ db, caches, cameras, linkedCameras, writer: snapshotWriter, recordingSettings, anpr, node, log: app.log });
    const nodeRelay = new NodeRelay(secrets);
    const linkedLive = new LinkedLiveView(db, caches, linkHub, nodeRelay, node, { requestTimeoutMs: REQUEST_TIMEOUT_MS, idleMs: config.hlsIdleSeconds * 1000 });
    liveView.useLinked(linkedLive);
    // Before the leases are released and the database closes: the recorders reconnect to another node.
    app.addHook('preClose', async () => linkHub.closeAll());
    return { recorderLinks: new RecorderLinksService(db, caches), linkHub, recorderEvents: new RecorderEvents(db, cameras), linkedLive, nodeRelay };
  },
});
