// The words of each e-mail the platform sends (docs/email.md, What is sent), as MessageParts that
// message-layout.ts turns into the text and HTML bodies.
import { KIND_LABELS, type MailKind } from './mail-kinds.js';
import { RESET_MINUTES } from './password-resets.js';
import type { MessageParts } from './message-layout.js';

const footer = (kind: MailKind, unsubscribeUrl: string) => ({
  reason: `You get this e-mail because you chose to hear when ${KIND_LABELS[kind]}.`,
  unsubscribeUrl,
});

export const resetMessage = (link: string): MessageParts => ({
  subject: 'Reset your Overlook password',
  paragraphs: [
    'Someone, hopefully you, asked to reset the password of the Overlook account of this address.',
    `The link works once, within ${RESET_MINUTES} minutes. If you did not ask, ignore this e-mail: your password stays as it is.`,
  ],
  action: { label: 'Choose a new password', url: link },
});

export const invitationMessage = (p: { projectName: string; inviter: string | null; role: string; link: string; expiresAt: string }): MessageParts => ({
  subject: `You are invited to ${p.projectName} on Overlook`,
  paragraphs: [
    `${p.inviter ?? 'Someone'} invited you to the project “${p.projectName}” on Overlook, as ${p.role}.`,
    `Open the link to make your account and join. The invitation expires on ${p.expiresAt.slice(0, 10)}.`,
  ],
  action: { label: 'Accept the invitation', url: p.link },
});

export const addedToProjectMessage = (p: { projectName: string; adder: string; role: string; link: string; unsubscribeUrl: string }): MessageParts => ({
  subject: `${p.adder} added you to ${p.projectName} on Overlook`,
  paragraphs: [
    `${p.adder} added you to the project “${p.projectName}” on Overlook, as ${p.role}.`,
    'If you do not know this project or do not want to be part of it, open it and choose “Leave this project” on its Members page.',
  ],
  action: { label: 'Open the project', url: p.link },
  footer: footer('project_added', p.unsubscribeUrl),
});

export const cameraStatusMessage = (p: {
  camera: string;
  project: string;
  online: boolean;
  at: string;
  reason?: string;
  link: string;
  unsubscribeUrl: string;
}): MessageParts => ({
  subject: `${p.camera} is ${p.online ? 'back online' : 'offline'}`,
  paragraphs: [
    p.online
      ? `The camera “${p.camera}” of ${p.project} is online again (${p.at}).`
      : `The camera “${p.camera}” of ${p.project} went offline (${p.at}). No pictures are recorded until it is back.`,
    ...(p.reason && !p.online ? [`Reason: ${p.reason}`] : []),
  ],
  action: { label: 'Open the camera', url: p.link },
  footer: footer('camera_status', p.unsubscribeUrl),
});

/** What each picture check finds, as the e-mail says it. */
const PICTURE_FAULTS: Record<string, string> = {
  black: 'black or blown out',
  frozen: 'frozen',
  blurred: 'blurred or covered',
  moved: 'moved from its reference view',
};

export const pictureFaultMessage = (p: {
  camera: string;
  project: string;
  check: string;
  fault: boolean;
  since: string;
  link: string;
  unsubscribeUrl: string;
}): MessageParts => {
  const what = PICTURE_FAULTS[p.check] ?? `failing the ${p.check} check`;
  return {
    subject: p.fault ? `${p.camera}: the picture is ${what}` : `${p.camera}: the picture is right again`,
    paragraphs: p.fault
      ? [
          `The pictures of the camera “${p.camera}” of ${p.project} are ${what}, since the frame of ${p.since}.`,
          'The camera still records: look at its latest pictures, then check its lens, its view and its power.',
        ]
      : [`The pictures of the camera “${p.camera}” of ${p.project} are no longer ${what}, since the frame of ${p.since}.`],
    action: { label: 'Open the camera', url: p.link },
    footer: footer('picture_faults', p.unsubscribeUrl),
  };
};

export const mediaItemMessage = (p: { title: string; project: string; ready: boolean; link: string; unsubscribeUrl: string }): MessageParts => ({
  subject: p.ready ? `Your ${p.title} is ready` : `Your ${p.title} could not be made`,
  paragraphs: [
    p.ready
      ? `The ${p.title} you asked for in ${p.project} is ready to watch and download.`
      : `The ${p.title} you asked for in ${p.project} failed. You can try again from the media hub.`,
  ],
  action: { label: 'Open the media hub', url: p.link },
  footer: footer('media_items', p.unsubscribeUrl),
});

export const keyLeakMessage = (p: { keyName: string; reportedAt: string; link: string; unsubscribeUrl: string }): MessageParts => ({
  subject: `Your API key “${p.keyName}” was revoked after a leak report`,
  paragraphs: [
    `Your API key “${p.keyName}” was found where it should not be and reported (${p.reportedAt}), so it was revoked: requests with it are refused from now on.`,
    'Make a new key for the programs that used it, and keep it out of public places.',
  ],
  action: { label: 'Your API keys', url: p.link },
  footer: footer('key_leaks', p.unsubscribeUrl),
});

export const webhookDisabledMessage = (p: { url: string; project: string; reason: string; unsubscribeUrl: string; link: string }): MessageParts => ({
  subject: `A webhook of ${p.project} was disabled`,
  paragraphs: [`The webhook to ${p.url} of ${p.project} was disabled: ${p.reason}.`, 'Fix the receiving end, then turn the webhook on again.'],
  action: { label: 'Open the project', url: p.link },
  footer: footer('webhooks', p.unsubscribeUrl),
});

export const progressPhotoMessage = (p: {
  title: string;
  project: string;
  localTime: string;
  pictures: { caption: string; cid?: string }[];
  link: string;
  unsubscribeUrl: string;
}): MessageParts => ({
  subject: `${p.title}: ${p.project}, ${p.localTime}`,
  paragraphs: [`The latest pictures of ${p.project}, ${p.localTime} (the project’s time).`],
  action: { label: 'Open the project', url: p.link },
  pictures: p.pictures,
  footer: footer('progress_photos', p.unsubscribeUrl),
});
