// The SMTP hand-over (nodemailer): one pooled transport for the process, built from OVERLOOK_SMTP_URL.
// Off when the URL is unset: sending then throws, and the outbox keeps the message to retry.
import nodemailer, { type Transporter } from 'nodemailer';
import type { MailConfig } from '../../lib/config.js';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Images shown in the HTML by `cid:` and attached to the message. */
  images?: { filename: string; cid: string; content: Buffer }[];
  /** The page that turns this kind of message off, for mail clients' own unsubscribe button. */
  unsubscribeUrl?: string;
}

export class MailTransport {
  private readonly transporter: Transporter | null;

  constructor(private readonly config: MailConfig) {
    this.transporter = config.smtpUrl ? nodemailer.createTransport(config.smtpUrl) : null;
  }

  get enabled(): boolean {
    return this.transporter !== null;
  }

  /** Hands the message to the SMTP server; throws when e-mail is off or the server does not take it. */
  async send(mail: OutgoingMail): Promise<void> {
    if (!this.transporter) throw new Error('e-mail is off: OVERLOOK_SMTP_URL is not set');
    await this.transporter.sendMail({
      from: this.config.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      attachments: mail.images?.map((i) => ({ filename: i.filename, cid: i.cid, content: i.content, contentType: 'image/jpeg' })),
      ...(mail.unsubscribeUrl ? { list: { unsubscribe: mail.unsubscribeUrl } } : {}),
    });
  }

  close(): void {
    this.transporter?.close();
  }
}
