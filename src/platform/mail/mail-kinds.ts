// The kinds of message a person may turn off (docs/email.md, Choices). Password resets and invitations
// are answers to something someone asked for, and always sent.
export const MAIL_KINDS = ['camera_status', 'picture_faults', 'media_items', 'key_leaks', 'webhooks', 'progress_photos', 'project_added'] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

export const KIND_LABELS: Record<MailKind, string> = {
  camera_status: 'a camera goes offline or comes back online',
  picture_faults: 'a camera’s picture turns black, frozen, blurred or moved, and when it is right again',
  media_items: 'a clip or timelapse you made is ready or failed',
  key_leaks: 'one of your API keys was revoked after a leak report',
  webhooks: 'a project webhook was disabled after failing deliveries',
  progress_photos: 'a project’s progress photos are due',
  project_added: 'someone adds you to a project',
};

export const isMailKind = (k: unknown): k is MailKind => typeof k === 'string' && (MAIL_KINDS as readonly string[]).includes(k);
