// The connector framework's tables: a person's connection to a provider (secrets are AES-256-GCM
// envelopes, token-vault.ts), OAuth authorizations in progress, uploads made for a project, and events
// providers pushed. A provider is named by its connector id, an open set.
import { json, nullable, oneOf, table, text, timestamp, type TableType, type TablesType } from '../../../lib/db/table.js';

const connectorConnections = table({
  id: text(),
  user_id: text(),
  provider: text(),
  /** How the person connects: OAuth 2.0 or stored credentials. */
  auth_kind: oneOf(['oauth', 'credentials']),
  access_token_enc: nullable(text()),
  refresh_token_enc: nullable(text()),
  expires_at: nullable(timestamp()),
  credentials_enc: nullable(text()),
  /** The remote account (user, company names). */
  account: json(),
  /** Array of granted scopes. */
  scopes: json(),
  created_at: timestamp(),
  updated_at: timestamp(),
});
export type ConnectorConnectionsTable = TableType<typeof connectorConnections>;
export type AuthKind = ConnectorConnectionsTable['auth_kind'];

/** Binds the provider's callback to the person who started the authorization. */
const connectorOauthStates = table({
  state: text(),
  user_id: text(),
  provider: text(),
  code_verifier_enc: nullable(text()),
  project_exid: nullable(text()),
  redirect_after: nullable(text()),
  expires_at: timestamp(),
});
export type ConnectorOauthStatesTable = TableType<typeof connectorOauthStates>;

/** Something a connector uploaded to a provider on behalf of a project. */
const connectorUploads = table({
  id: text(),
  user_id: nullable(text()),
  provider: text(),
  project_id: text(),
  camera_id: nullable(text()),
  remote_project_id: text(),
  remote_id: text(),
  name: text(),
  details: json(),
  created_at: timestamp(),
});
export type ConnectorUploadsTable = TableType<typeof connectorUploads>;

/** An event a provider pushed (doorbell ring, gate booking). */
const connectorEvents = table({
  id: text(),
  provider: text(),
  user_id: nullable(text()),
  project_id: nullable(text()),
  payload: json(),
  received_at: timestamp(),
});
export type ConnectorEventsTable = TableType<typeof connectorEvents>;

export const connectorsTables = {
  connector_connections: connectorConnections,
  connector_oauth_states: connectorOauthStates,
  connector_uploads: connectorUploads,
  connector_events: connectorEvents,
};
export type ConnectorsTables = TablesType<typeof connectorsTables>;
