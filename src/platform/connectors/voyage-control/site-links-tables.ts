// Site connectors' tables: a Voyage Control venue or doorbell device feeding a project (and camera),
// with its sealed webhook secret, and the webhook event ids each link has received (a replay is refused).
import { nullable, table, text, timestamp, type TableType, type TablesType } from '../../../lib/db/table.js';

const siteConnectorLinks = table({
  id: text(),
  provider: text(),
  project_id: text(),
  camera_id: nullable(text()),
  user_id: text(),
  remote_id: text(),
  remote_name: nullable(text()),
  webhook_secret_enc: text(),
  created_at: timestamp(),
  updated_at: timestamp(),
});
export type SiteConnectorLinksTable = TableType<typeof siteConnectorLinks>;

const siteConnectorDeliveries = table({
  link_id: text(),
  event_id: text(),
  received_at: timestamp(),
});

export const siteLinksTables = { site_connector_links: siteConnectorLinks, site_connector_deliveries: siteConnectorDeliveries };
export type SiteLinksTables = TablesType<typeof siteLinksTables>;
