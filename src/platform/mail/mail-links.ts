// The links e-mails carry. Reset and invitation links hold a random token made as the e-mail is sent
// (only its hash is stored);
// unsubscribe links hold the address and kind, signed with HMAC-SHA256 under a key kept sealed in the
// database (docs/deploy.md, Secrets), so they work without signing in and on every node.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SecretStore } from '../secrets/index.js';
import { isMailKind, type MailKind } from './mail-kinds.js';

const LINK_KEY_KIND = 'mail-links';

export class MailLinks {
  private constructor(
    private readonly base: string,
    private readonly key: Buffer,
  ) {}

  static async load(secrets: SecretStore, publicUrl: string): Promise<MailLinks> {
    const [active] = await secrets.ensure(LINK_KEY_KIND, async () => ({ kid: 'mail-links-1', value: randomBytes(32).toString('base64') }));
    return new MailLinks(publicUrl.replace(/\/+$/, ''), Buffer.from(active!.value, 'base64'));
  }

  /** The web app's screen that sets a new password with the token (docs/web-app.md). */
  reset(token: string): string {
    return `${this.base}/#/reset-password/${encodeURIComponent(token)}`;
  }

  /** The web app's screen that accepts an invitation with the token, making the account first. */
  invitation(token: string): string {
    return `${this.base}/#/invitation/${encodeURIComponent(token)}`;
  }

  /** A page of the platform's, for links to what the message is about. */
  page(path: string): string {
    return `${this.base}/#${path}`;
  }

  /** The key-management page. */
  keyPage(): string {
    return `${this.base}/keys`;
  }

  unsubscribe(email: string, kind: MailKind): string {
    return `${this.base}/#/unsubscribe/${this.unsubscribeToken(email, kind)}`;
  }

  unsubscribeToken(email: string, kind: MailKind): string {
    const body = Buffer.from(JSON.stringify({ e: email, k: kind })).toString('base64url');
    return `${body}.${this.sign(body)}`;
  }

  /** The address and kind an unsubscribe token names, or null when it was not made here or was altered. */
  readUnsubscribe(token: string): { email: string; kind: MailKind } | null {
    const [body, mac, extra] = token.split('.');
    if (!body || !mac || extra !== undefined) return null;
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      const parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { e?: unknown; k?: unknown };
      return typeof parsed.e === 'string' && isMailKind(parsed.k) ? { email: parsed.e, kind: parsed.k } : null;
    } catch {
      return null;
    }
  }

  private sign(body: string): string {
    return createHmac('sha256', this.key).update(`unsubscribe.${body}`).digest('base64url');
  }
}
