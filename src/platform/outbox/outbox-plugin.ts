// The outbox (docs/notifications.md, The outbox): registered right after the secrets, so every feature
// that records events can name `outbox` in its needs, and every channel's feature plugs its channel in
// while it registers. Dispatching starts when the app is ready (every channel is in by then) and stops
// before close, while the channels it calls are still up.
import { defineFeature } from '../plugins/feature.js';
import { Outbox } from './outbox.js';
import { OutboxWakeup, outboxChannel } from './outbox-wakeup.js';

declare module '../plugins/feature.js' {
  interface PlatformServices {
    /** Events recorded with the changes that cause them, delivered once through each channel. */
    outbox: Outbox;
  }
}

export const outboxFeature = defineFeature({
  name: 'outbox',
  needs: ['config', 'db'],
  offers: ['outbox'],
  build: ({ config, db }, app) => {
    const m = config.messages;
    const notifyChannel = outboxChannel(db.pgSchema);
    const outbox = new Outbox(db, {
      // The work lease: a dead node's deliveries are taken over as its other work is (docs/deploy.md).
      leaseMs: config.workLeaseSeconds * 1000,
      pollMs: m.pollMs,
      retryFirstMs: m.retryFirstMs,
      retryMaxMs: m.retryMaxMs,
      giveUpMs: m.giveUpMs,
      keepMs: m.keepMs,
      notifyChannel,
      log: app.log,
    });
    const wakeup =
      db.dialect === 'postgres' && db.databaseUrl
        ? new OutboxWakeup(db.databaseUrl, notifyChannel, () => outbox.wake(), app.log, db.listenApplicationName)
        : null;
    app.addHook('onReady', async () => {
      outbox.start();
      await wakeup?.start();
    });
    // preClose runs before every onClose: the channels (their clients) are still up while it stops.
    app.addHook('preClose', async () => {
      await wakeup?.close();
      await outbox.stop();
    });
    return { outbox };
  },
});
