// Project webhooks (docs/notifications.md, Webhooks): the service behind the routes, and the outbox's
// `webhook` channel, plugged in while this plugin registers. Receivers are reached through the outbound
// guard only.
import { OutboundGuard } from '../../lib/net/outbound-guard.js';
import { guardedDispatcher } from '../../lib/net/guarded-http.js';
import { defineFeature } from '../plugins/feature.js';
import { WebhookChannel } from './webhook-channel.js';
import { WebhooksService } from './webhooks-service.js';

declare module '../plugins/feature.js' {
  interface PlatformServices {
    webhooks: WebhooksService;
  }
}

export const webhooksFeature = defineFeature({
  name: 'webhooks',
  needs: ['config', 'db', 'secrets', 'outbox', 'notifications'],
  offers: ['webhooks'],
  build: ({ config, db, secrets, outbox, notifications }, app) => {
    const guard = new OutboundGuard(config.outbound);
    // The port really listened on is known only now (tests and `--port 0` pick a free one).
    app.addHook('onListen', async function () {
      const addr = this.server.address();
      if (addr && typeof addr === 'object') guard.addOwn({ host: addr.address, port: addr.port });
    });
    const m = config.messages;
    const dispatcher = guardedDispatcher(guard, { connectTimeoutMs: m.webhookTimeoutMs });
    app.addHook('onClose', async () => dispatcher.close());
    outbox.addChannel(
      new WebhookChannel({ db, outbox, secrets, notifications, dispatcher, timeoutMs: m.webhookTimeoutMs, disableAfter: m.webhookDisableAfter, log: app.log }),
    );
    return { webhooks: new WebhooksService(db, secrets, guard, outbox) };
  },
});
