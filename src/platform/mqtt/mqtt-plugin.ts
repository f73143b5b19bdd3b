// MQTT (docs/notifications.md, MQTT): when the operator sets OVERLOOK_MQTT_URL, the outbox's `mqtt`
// channel publishes every event on the broker; unset, nothing is published and nothing connects.
import { defineFeature } from '../plugins/feature.js';
import { MqttChannel } from './mqtt-channel.js';

export const mqttFeature = defineFeature({
  name: 'mqtt',
  needs: ['config', 'outbox'],
  offers: [],
  build: ({ config, outbox }, app) => {
    const url = config.messages.mqttUrl;
    if (!url) return {};
    const channel = new MqttChannel(url, config.messages.webhookTimeoutMs, app.log);
    outbox.addChannel(channel);
    app.addHook('onReady', async () => channel.start());
    // The outbox stops dispatching before any onClose (preClose).
    app.addHook('onClose', async () => channel.stop());
    return {};
  },
});
