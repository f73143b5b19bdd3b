// The OAuth authorization server's table: every record oidc-provider persists (client, grant, session,
// interaction, code, refresh token…), one generic table keyed by model and id.
import { json, nullable, table, text, timestamp, type TableType, type TablesType } from '../../lib/db/table.js';

const oauthRecords = table({
  /** oidc-provider's model name. */
  model: text(),
  id: text(),
  payload: json(),
  grant_id: nullable(text()),
  user_code: nullable(text()),
  uid: nullable(text()),
  /** The person who registered this client through /v2/developer/apps (clients only). */
  owner_id: nullable(text()),
  created_at: timestamp(),
  expires_at: nullable(timestamp()),
  consumed_at: nullable(timestamp()),
});
export type OauthRecordsTable = TableType<typeof oauthRecords>;

export const oauthTables = { oauth_records: oauthRecords };
export type OauthTables = TablesType<typeof oauthTables>;
