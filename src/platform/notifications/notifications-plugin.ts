// In-app notifications of people (mentions, finished renders, transfers).
import { defineFeature } from '../plugins/feature.js';
import { NotificationsService } from './notifications-service.js';

declare module '../plugins/feature.js' {
  interface PlatformServices {
    notifications: NotificationsService;
  }
}

export const notificationsFeature = defineFeature({
  name: 'notifications',
  needs: ['db'],
  offers: ['notifications'],
  build: ({ db }) => ({ notifications: new NotificationsService(db) }),
});
