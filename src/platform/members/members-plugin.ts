// Project members and their roles, and invitations for e-mails with no account yet. Registered after
// projects and api-keys, whose services name invitations' projects and drop a leaver's keys.
import { defineFeature } from '../plugins/feature.js';
import { InvitationsService } from './invitations-service.js';
import { MembersService } from './members-service.js';
import { StrangerAddThrottle } from './stranger-add-throttle.js';

declare module '../plugins/feature.js' {
  interface PlatformServices {
    members: MembersService;
    invitations: InvitationsService;
  }
}

export const membersFeature = defineFeature({
  name: 'members',
  needs: ['config', 'db', 'caches', 'notifications', 'audit', 'projects', 'apiKeys', 'outbox'],
  offers: ['members', 'invitations'],
  build: ({ config, db, caches, notifications, audit, projects, apiKeys, outbox }, app) => {
    const invitations = new InvitationsService(db, caches, audit, projects, outbox);
    const strangerAdds = new StrangerAddThrottle(db, config.memberAddsPerHour, app.log);
    return { members: new MembersService(db, caches, notifications, audit, invitations, apiKeys, outbox, strangerAdds, projects), invitations };
  },
});
