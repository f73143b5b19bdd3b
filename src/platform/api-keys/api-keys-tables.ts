// The API keys feature's tables: keys (only their hash is kept) and the projects a key is limited to.
import { integer, json, nullable, table, text, timestamp, type TableType, type TablesType } from '../../lib/db/table.js';

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
  /** Requests allowed per window; null (with the window) for no limit. */
  rate_limit_requests: nullable(integer()),
  rate_limit_window_seconds: nullable(integer()),
  /** JSON array of the CIDRs the key may be used from; null for anywhere. */
  allowed_ips: nullable(json()),
});
export type ApiKeysTable = TableType<typeof apiKeys>;

const apiKeyProjects = table({
  api_key_id: text(),
  project_id: text(),
});

/** The per-key request counts on PostgreSQL, shared by every node (rate-limiter-flexible's layout; empty on SQLite). */
const apiKeyRateCounts = table({
  key: text(),
  points: integer(),
  /** When the count ends, in milliseconds since the epoch. */
  expire: nullable(integer()),
});

export const apiKeysTables = { api_keys: apiKeys, api_key_projects: apiKeyProjects, api_key_rate_counts: apiKeyRateCounts };
export type ApiKeysTables = TablesType<typeof apiKeysTables>;
