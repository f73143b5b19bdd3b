// E-mail (docs/email.md): where messages are handed over (an SMTP server named by one URL) and whose
// address they come from. Without OVERLOOK_SMTP_URL e-mail is off, and the platform says so where a
// person would expect a message (GET /v2/mail/status).
import type { PlatformEnvValues } from './env-schema.js';

export interface MailConfig {
  /** `smtp://[user:password@]host:port` or `smtps://…`; undefined: e-mail is off. */
  smtpUrl?: string;
  /** The From address of every message. */
  from: string;
}

export function mailConfig(env: PlatformEnvValues, publicUrl: string): MailConfig {
  const smtpUrl = env.OVERLOOK_SMTP_URL;
  if (smtpUrl !== undefined) {
    let u: URL;
    try {
      u = new URL(smtpUrl);
    } catch {
      throw new Error('OVERLOOK_SMTP_URL must be a URL such as smtp://host:port');
    }
    if ((u.protocol !== 'smtp:' && u.protocol !== 'smtps:') || !u.hostname) throw new Error('OVERLOOK_SMTP_URL must be smtp://host:port or smtps://host:port');
  }
  return { smtpUrl, from: env.OVERLOOK_MAIL_FROM ?? `Overlook <overlook@${hostOf(publicUrl)}>` };
}

/** The public URL's host for the default sender address; `localhost` when the URL is empty or not one. */
function hostOf(publicUrl: string): string {
  try {
    return new URL(publicUrl).hostname || 'localhost';
  } catch {
    return 'localhost';
  }
}
