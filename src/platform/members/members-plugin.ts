// Project members and their roles.
import { defineFeature } from '../plugins/feature.js';
import { MembersService } from './members-service.js';

declare module '../plugins/feature.js' {
  interface PlatformServices {
    members: MembersService;
  }
}

export const membersFeature = defineFeature({
  name: 'members',
  needs: ['db', 'caches', 'notifications', 'audit'],
  offers: ['members'],
  build: ({ db, caches, notifications, audit }) => {
    return { members: new MembersService(db, caches, notifications, audit) };
  },
});
