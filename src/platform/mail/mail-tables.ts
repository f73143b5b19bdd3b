// The mail feature's tables (docs/email.md): password-reset tokens, what each address chose to receive,
// and the last slot each progress-photo schedule was sent for.
import { json, nullable, table, text, timestamp, type TableType, type TablesType } from '../../lib/db/table.js';

/** A password reset asked for by e-mail: single use, short-lived. */
const passwordResets = table({
  id: text(),
  user_id: text(),
  /** SHA-256 (hex) of the token the e-mail carries; the token itself is never stored. */
  token_hash: text(),
  created_at: timestamp(),
  expires_at: timestamp(),
  /** Set when the token is spent (or superseded): from then on it is refused. */
  used_at: nullable(timestamp()),
});
export type PasswordResetsTable = TableType<typeof passwordResets>;

/** What an address turned off; no row: everything on. Kept by address, so a recipient without an account can unsubscribe too. */
const mailPreferences = table({
  email: text(),
  /** Array of the kinds of message turned off (mail-kinds.ts). */
  off: json(),
  updated_at: timestamp(),
});

/** The scheduled moment a progress-photo delivery was last sent for: each moment is sent once. */
const progressPhotoSends = table({
  progress_photo_id: text(),
  /** ISO-8601 UTC of the scheduled moment. */
  last_slot: timestamp(),
});

export const mailTables = { password_resets: passwordResets, mail_preferences: mailPreferences, progress_photo_sends: progressPhotoSends };
export type MailTables = TablesType<typeof mailTables>;
