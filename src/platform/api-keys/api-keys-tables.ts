// The API keys feature's tables: keys (only their hash is kept) and the projects a key is limited to.
import { json, nullable, table, text, timestamp, type TableType, type TablesType } from '../../lib/db/table.js';

const apiKeys = table({
  id: text(),
  user_id: text(),
  name: text(),
  /** SHA-256 of the key value, hex. The value itself is never stored. */
  key_hash: text(),
  /** The first characters of the value, to recognise a key in a list. */
  key_hint: text(),
  /** Array of scope names. */
  scopes: json(),
  expires_at: timestamp(),
  revoked_at: nullable(timestamp()),
  last_used_at: nullable(timestamp()),
  created_at: timestamp(),
  updated_at: timestamp(),
});
export type ApiKeysTable = TableType<typeof apiKeys>;

const apiKeyProjects = table({
  api_key_id: text(),
  project_id: text(),
});
export type ApiKeyProjectsTable = TableType<typeof apiKeyProjects>;

export const apiKeysTables = { api_keys: apiKeys, api_key_projects: apiKeyProjects };
export type ApiKeysTables = TablesType<typeof apiKeysTables>;
