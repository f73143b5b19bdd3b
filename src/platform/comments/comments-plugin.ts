// Comments on a project's cameras, with mentions that notify members.
import { defineFeature } from '../plugins/feature.js';
import { CommentsService } from './comments-service.js';

declare module '../plugins/feature.js' {
  interface PlatformServices {
    comments: CommentsService;
  }
}

export const commentsFeature = defineFeature({
  name: 'comments',
  needs: ['db', 'notifications', 'outbox'],
  offers: ['comments'],
  build: ({ db, notifications, outbox }) => ({ comments: new CommentsService(db, notifications, outbox) }),
});
