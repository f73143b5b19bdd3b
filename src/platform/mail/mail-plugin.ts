// E-mail (docs/email.md): the SMTP transport, password resets, each address's choices, and the
// progress-photo sender; every message goes out through the outbox's `email` channel, plugged in here.
import { GiveUp } from '../outbox/index.js';
import { defineFeature } from '../plugins/feature.js';
import { EmailChannel } from './email-channel.js';
import { MailLinks } from './mail-links.js';
import { MailPreferences } from './mail-preferences.js';
import { MailTransport } from './mail-transport.js';
import { PasswordResets } from './password-resets.js';
import { ProgressPhotoMail } from './progress-photo-mail.js';
import { ProgressPhotoSender } from './progress-photo-sender.js';
import { ResetThrottle } from './reset-throttle.js';

interface MailServices {
  transport: MailTransport;
  links: MailLinks;
  preferences: MailPreferences;
  resets: PasswordResets;
  resetThrottle: ResetThrottle;
  progressPhotoSender: ProgressPhotoSender;
}

declare module '../plugins/feature.js' {
  interface PlatformServices {
    mail: MailServices;
  }
}

export const mailFeature = defineFeature({
  name: 'mail',
  needs: ['config', 'db', 'secrets', 'sessions', 'audit', 'invitations', 'snapshotReader', 'workLeases', 'outbox'],
  offers: ['mail'],
  build: async ({ config, db, secrets, sessions, audit, invitations, snapshotReader, workLeases, outbox }, app) => {
    const transport = new MailTransport(config.mail);
    const links = await MailLinks.load(secrets, config.publicUrl);
    const preferences = new MailPreferences(db);
    const resets = new PasswordResets(db, outbox, sessions, audit, transport.enabled);
    const progressPhotoSender = new ProgressPhotoSender(db, outbox, workLeases, app.log);
    outbox.addChannel(
      new EmailChannel({
        db,
        transport,
        links,
        preferences,
        resets,
        invitations,
        progressPhotos: new ProgressPhotoMail(db, snapshotReader),
        giveUp: (message) => new GiveUp(message),
      }),
    );
    if (!transport.enabled) app.log.info('e-mail is off: OVERLOOK_SMTP_URL is not set (docs/email.md)');
    app.addHook('onReady', async () => progressPhotoSender.start());
    app.addHook('onClose', async () => {
      await progressPhotoSender.stop();
      transport.close();
    });
    return { mail: { transport, links, preferences, resets, resetThrottle: new ResetThrottle(db, app.log), progressPhotoSender } };
  },
});
