// The recorder-links feature's tables: links (only hashes of the pairing code and the credential), the
// devices a linked recorder shares with the camera each became, and the events they sent.
import { json, nullable, table, text, timestamp, type TableType, type TablesType } from '../../lib/db/table.js';

const recorderLinks = table({
  id: text(),
  project_id: text(),
  name: text(),
  /** SHA-256 of the pairing code, hex; null once used. */
  code_hash: nullable(text()),
  code_expires_at: nullable(timestamp()),
  /** SHA-256 of the link credential (`orl_…`), hex; null until paired. */
  credential_hash: nullable(text()),
  recorder_name: nullable(text()),
  recorder_version: nullable(text()),
  created_by: nullable(text()),
  created_at: timestamp(),
  paired_at: nullable(timestamp()),
  revoked_at: nullable(timestamp()),
  /** When the holding node last heard the recorder (renewed while connected). */
  last_seen_at: nullable(timestamp()),
  /** The current connection, and the node holding it with its address (docs/site-link.md, Several nodes). */
  connection_id: nullable(text()),
  node_id: nullable(text()),
  node_url: nullable(text()),
});
export type RecorderLinksTable = TableType<typeof recorderLinks>;

const recorderLinkDevices = table({
  link_id: text(),
  device_id: text(),
  camera_id: text(),
  /** The device's last reported state, or `gone` when it left the recorder's list. */
  state: text(),
  updated_at: timestamp(),
});
export type RecorderLinkDevicesTable = TableType<typeof recorderLinkDevices>;

const recorderEvents = table({
  id: text(),
  camera_id: text(),
  link_id: nullable(text()),
  kind: text(),
  at: timestamp(),
  /** Object, as the recorder sent it. */
  data: json(),
  /** What makes a resent event the same event (hash of device, kind, time and data). */
  dedupe_key: text(),
  anpr_event_id: nullable(text()),
  created_at: timestamp(),
});
export type RecorderEventsTable = TableType<typeof recorderEvents>;

export const recorderLinksTables = { recorder_links: recorderLinks, recorder_link_devices: recorderLinkDevices, recorder_events: recorderEvents };
export type RecorderLinksTables = TablesType<typeof recorderLinksTables>;
