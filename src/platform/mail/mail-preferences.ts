// What each address receives by e-mail (docs/email.md, Choices): every kind is on until the person
// turns it off, in account settings or with the unsubscribe link of a message. Kept by address, so
// progress-photo recipients without an account can unsubscribe too.
import type { PlatformDb } from '../database.js';
import { MAIL_KINDS, type MailKind } from './mail-kinds.js';
import * as repo from './mail-repository.js';

export type Preferences = Record<MailKind, boolean>;

const toPreferences = (off: string[]): Preferences => Object.fromEntries(MAIL_KINDS.map((k) => [k, !off.includes(k)])) as Preferences;

export class MailPreferences {
  constructor(private readonly db: PlatformDb) {}

  async of(email: string): Promise<Preferences> {
    return toPreferences(await repo.preferencesOf(this.db, email));
  }

  /** Changes the kinds named, leaves the others as they were. */
  async change(email: string, changes: Partial<Preferences>): Promise<Preferences> {
    const current = await this.of(email);
    const next = { ...current, ...changes };
    await repo.savePreferences(
      this.db,
      email,
      MAIL_KINDS.filter((k) => !next[k]),
      new Date().toISOString(),
    );
    return next;
  }

  /** The addresses among `emails` that receive `kind`. */
  async receiving(emails: readonly string[], kind: MailKind): Promise<string[]> {
    const unique = [...new Set(emails)];
    const prefs = await repo.preferencesAmong(this.db, unique);
    return unique.filter((e) => !(prefs.get(e) ?? []).includes(kind));
  }
}
