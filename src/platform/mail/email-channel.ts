// The outbox's `email` channel (docs/email.md): which addresses an event goes to, and the message each
// gets. Targets are e-mail addresses, chosen once when the event is fanned out (preferences then
// apply); each delivery renders and sends its message, and a failure is retried by the outbox. Links
// that are secrets (reset, invitation) get their token here, as the message is sent: never from the event.
import type { PlatformDb } from '../database.js';
import { keyRowById, projectExidsOfKeys } from '../api-keys/index.js';
import { requesterOfMediaItem } from '../media-hub/index.js';
import { cameraRefByExid } from '../cameras/index.js';
import { adminsOf, membersOf, ownerOf, type InvitationsService } from '../members/index.js';
import { projectRefByExid, projectRowByExid } from '../projects/index.js';
import { emailsOf, findUserByEmail, profilesOf } from '../users/index.js';
import type { MailKind } from './mail-kinds.js';
import type { MailLinks } from './mail-links.js';
import type { MailPreferences } from './mail-preferences.js';
import type { MailTransport, OutgoingMail } from './mail-transport.js';
import { renderHtml, renderText, type MessageParts } from './message-layout.js';
import * as messages from './messages.js';
import { RESET_EVENT, type PasswordResets } from './password-resets.js';
import type { ProgressPhotoMail } from './progress-photo-mail.js';
import type { Channel, StoredEvent } from '../outbox/index.js';

const str = (data: Record<string, unknown>, ...keys: string[]): string | undefined => {
  for (const k of keys) if (typeof data[k] === 'string' && data[k]) return data[k] as string;
  return undefined;
};

export interface EmailChannelDeps {
  db: PlatformDb;
  transport: MailTransport;
  links: MailLinks;
  preferences: MailPreferences;
  resets: PasswordResets;
  invitations: Pick<InvitationsService, 'issueToken'>;
  progressPhotos: ProgressPhotoMail;
  /** Wraps a "nothing to send" into the outbox's give-up error. */
  giveUp: (message: string) => Error;
}

export class EmailChannel implements Channel {
  readonly name = 'email';

  constructor(private readonly d: EmailChannelDeps) {}

  async targets(event: StoredEvent): Promise<string[]> {
    if (!this.d.transport.enabled) return [];
    const data = event.data;
    switch (event.type) {
      case RESET_EVENT: {
        const to = await this.d.resets.recipientOf(str(data, 'email') ?? '');
        return to ? [to] : [];
      }
      case 'invitation.created': {
        const email = str(data, 'email');
        // Only an address without an account: a person with one sees the invitation when signed in.
        return email && !(await findUserByEmail(this.d.db, email)) ? [email] : [];
      }
      case 'member.added': {
        // Told when someone else added them directly; joining by an invitation they accepted is no news.
        const userId = str(data, 'user_id');
        const adder = str(data, 'added_by');
        return userId && adder && adder !== userId && !str(data, 'via') ? this.receiving([userId], 'project_added') : [];
      }
      case 'camera.status_changed': {
        // A new camera's first contact is no news: only a change from a status it had is told.
        if (str(data, 'previous_status') === 'waiting') return [];
        const project = event.projectExid ? await projectRefByExid(this.d.db, event.projectExid) : undefined;
        if (!project) return [];
        const members = await membersOf(this.d.db, project.id);
        return this.receiving(
          members.map((m) => m.user_id),
          'camera_status',
        );
      }
      case 'camera.picture_fault': {
        const project = event.projectExid ? await projectRefByExid(this.d.db, event.projectExid) : undefined;
        if (!project) return [];
        const members = await membersOf(this.d.db, project.id);
        return this.receiving(
          members.map((m) => m.user_id),
          'picture_faults',
        );
      }
      case 'media_item.ready':
      case 'media_item.failed': {
        const item = await requesterOfMediaItem(this.d.db, str(data, 'media_item_id') ?? '');
        if (item?.requester_id) return this.receiving([item.requester_id], 'media_items');
        return item?.requester_email ? this.d.preferences.receiving([item.requester_email], 'media_items') : [];
      }
      case 'key.revoked_by_leak': {
        // One event per project of the key: its owner is told once, by the event of the first project.
        const keyId = str(data, 'key_id') ?? '';
        const projects = [...((await projectExidsOfKeys(this.d.db, [keyId])).get(keyId) ?? [])].sort();
        if (event.projectExid !== (projects[0] ?? null)) return [];
        const ownerId = str(data, 'owner_id') ?? (await keyRowById(this.d.db, keyId))?.user_id;
        return ownerId ? this.receiving([ownerId], 'key_leaks') : [];
      }
      case 'webhook.disabled': {
        const project = event.projectExid ? await projectRefByExid(this.d.db, event.projectExid) : undefined;
        const owner = project && (await ownerOf(this.d.db, project.id));
        const admins = project ? await adminsOf(this.d.db, project.id) : [];
        return owner ? this.receiving([owner], 'webhooks') : this.receiving(admins, 'webhooks');
      }
      case 'progress_photo.due':
        return this.d.preferences.receiving(await this.d.progressPhotos.recipientsOf(str(data, 'progress_photo_id') ?? ''), 'progress_photos');
      default:
        return [];
    }
  }

  async deliver(event: StoredEvent, to: string): Promise<void> {
    const mail = await this.compose(event, to);
    if (!mail) throw this.d.giveUp(`nothing to send for ${event.type} ${event.id}: what it was about is gone`);
    await this.d.transport.send(mail);
  }

  private async receiving(userIds: readonly string[], kind: MailKind): Promise<string[]> {
    const emails = await emailsOf(this.d.db, [...userIds]);
    return this.d.preferences.receiving([...emails.values()], kind);
  }

  private mail(to: string, parts: MessageParts, extra: Partial<OutgoingMail> = {}): OutgoingMail {
    return { to, subject: parts.subject, text: renderText(parts), html: renderHtml(parts), unsubscribeUrl: parts.footer?.unsubscribeUrl, ...extra };
  }

  private async projectName(exid: string | null): Promise<{ exid: string; name: string } | null> {
    const p = exid ? await projectRowByExid(this.d.db, exid) : undefined;
    return p ? { exid: p.exid, name: p.name } : null;
  }

  /** The message for one recipient, or null when there is nothing left to say. */
  private async compose(event: StoredEvent, to: string): Promise<OutgoingMail | null> {
    const { links } = this.d;
    const data = event.data;
    switch (event.type) {
      case RESET_EVENT: {
        // The token is made as the e-mail is sent: the outbox never holds it.
        const token = await this.d.resets.issue(to);
        return token ? this.mail(to, messages.resetMessage(links.reset(token))) : null;
      }
      case 'invitation.created': {
        const project = event.projectExid ? await projectRefByExid(this.d.db, event.projectExid) : undefined;
        const issued = project && (await this.d.invitations.issueToken(project.id, to));
        if (!issued) return null;
        return this.mail(
          to,
          messages.invitationMessage({
            projectName: issued.projectName,
            inviter: issued.inviter,
            role: issued.role,
            expiresAt: issued.expiresAt,
            link: links.invitation(issued.token),
          }),
        );
      }
      case 'member.added': {
        const project = await this.projectName(event.projectExid);
        const adder = str(data, 'added_by');
        const person = adder ? (await profilesOf(this.d.db, [adder])).get(adder) : undefined;
        if (!project) return null;
        return this.mail(
          to,
          messages.addedToProjectMessage({
            projectName: project.name,
            adder: person ? `${person.firstname} ${person.lastname}`.trim() || person.email : 'Someone',
            role: str(data, 'role') ?? 'member',
            link: links.page(`/projects/${project.exid}/members`),
            unsubscribeUrl: links.unsubscribe(to, 'project_added'),
          }),
        );
      }
      case 'camera.status_changed': {
        const camera = event.cameraExid ? await cameraRefByExid(this.d.db, event.cameraExid) : undefined;
        const project = await this.projectName(event.projectExid);
        if (!camera || !project) return null;
        const status = str(data, 'status') ?? '';
        return this.mail(
          to,
          messages.cameraStatusMessage({
            camera: camera.name,
            project: project.name,
            online: status === 'online',
            at: str(data, 'checked_at') ?? event.createdAt,
            reason: str(data, 'reason'),
            link: links.page(`/cameras/${camera.exid}`),
            unsubscribeUrl: links.unsubscribe(to, 'camera_status'),
          }),
        );
      }
      case 'camera.picture_fault': {
        const camera = event.cameraExid ? await cameraRefByExid(this.d.db, event.cameraExid) : undefined;
        const project = await this.projectName(event.projectExid);
        if (!camera || !project) return null;
        return this.mail(
          to,
          messages.pictureFaultMessage({
            camera: camera.name,
            project: project.name,
            check: str(data, 'check') ?? 'picture',
            fault: str(data, 'state') === 'fault',
            since: str(data, 'since') ?? event.createdAt,
            link: links.page(`/cameras/${camera.exid}`),
            unsubscribeUrl: links.unsubscribe(to, 'picture_faults'),
          }),
        );
      }
      case 'media_item.ready':
      case 'media_item.failed': {
        const project = await this.projectName(event.projectExid);
        if (!project) return null;
        return this.mail(
          to,
          messages.mediaItemMessage({
            title: str(data, 'title') ?? str(data, 'kind', 'type') ?? 'media item',
            project: project.name,
            ready: event.type === 'media_item.ready',
            link: links.page(`/projects/${project.exid}/media`),
            unsubscribeUrl: links.unsubscribe(to, 'media_items'),
          }),
        );
      }
      case 'key.revoked_by_leak':
        return this.mail(
          to,
          messages.keyLeakMessage({
            keyName: str(data, 'key_name', 'name') ?? 'unnamed',
            reportedAt: str(data, 'revoked_at') ?? event.createdAt,
            link: links.keyPage(),
            unsubscribeUrl: links.unsubscribe(to, 'key_leaks'),
          }),
        );
      case 'webhook.disabled': {
        const project = await this.projectName(event.projectExid);
        if (!project) return null;
        return this.mail(
          to,
          messages.webhookDisabledMessage({
            url: str(data, 'url') ?? 'a webhook',
            project: project.name,
            reason: `its last ${typeof data.failures === 'number' ? data.failures : 'several'} deliveries failed`,
            link: links.page(`/projects/${project.exid}`),
            unsubscribeUrl: links.unsubscribe(to, 'webhooks'),
          }),
        );
      }
      case 'progress_photo.due': {
        const made = await this.d.progressPhotos.compose(str(data, 'progress_photo_id') ?? '', str(data, 'slot') ?? event.createdAt);
        if (!made) return null;
        const parts = messages.progressPhotoMessage({
          ...made.message,
          link: links.page(`/projects/${made.projectExid}`),
          unsubscribeUrl: links.unsubscribe(to, 'progress_photos'),
        });
        return this.mail(to, parts, { images: made.images });
      }
      default:
        return null;
    }
  }
}
