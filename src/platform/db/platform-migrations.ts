// The platform's migrations, one set for SQLite and PostgreSQL. The keys are the names Kysely records
// in its migration table: never rename one, or existing databases would run it again.
import type { Migration } from 'kysely';
import * as foundation from './migrations/20261122_0001_foundation.js';
import * as snapshotIndex from './migrations/20261123_0001_snapshot_index.js';
import * as cloudRecordings from './migrations/20261123_0002_cloud_recordings.js';
import * as anpr from './migrations/20261123_0003_anpr.js';
import * as oauth from './migrations/20261123_0005_oauth.js';
import * as audit from './migrations/20261123_0006_audit.js';
import * as settings from './migrations/20261123_0007_settings.js';
import * as mediaHub from './migrations/20261123_0008_media_hub.js';
import * as bim from './migrations/20261123_0009_bim.js';
import * as weatherWallsComments from './migrations/20261123_0010_weather_walls_comments.js';
import * as connectors from './migrations/20261123_0011_connectors.js';
import * as siteConnectors from './migrations/20261123_0012_site_connectors.js';
import * as secrets from './migrations/20261124_0001_secrets.js';
import * as loginThrottle from './migrations/20261124_0002_login_throttle.js';
import * as leases from './migrations/20261124_0003_leases.js';
import * as nodeAddresses from './migrations/20261124_0004_node_addresses.js';
import * as keyLimits from './migrations/20261125_0001_key_limits.js';
import * as invitations from './migrations/20261125_0002_invitations.js';
import * as recorderLinks from './migrations/20261128_0001_recorder_links.js';
import * as outbox from './migrations/20261128_0002_outbox.js';
import * as webhooks from './migrations/20261128_0003_webhooks.js';
import * as mail from './migrations/20261128_0004_mail.js';
import * as pictureChecks from './migrations/20261128_0005_picture_checks.js';
import * as gate from './migrations/20261128_0007_gate.js';
import * as pictureStatus from './migrations/20261128_0011_picture_status.js';

// Listed by hand, not read from the folder, so the same code works from `src/` under tsx and from `dist/`.
export const PLATFORM_MIGRATIONS: Record<string, Migration> = {
  '20261122_0001_foundation': foundation,
  '20261123_0001_snapshot_index': snapshotIndex,
  '20261123_0002_cloud_recordings': cloudRecordings,
  '20261123_0003_anpr': anpr,
  '20261123_0005_oauth': oauth,
  '20261123_0006_audit': audit,
  '20261123_0007_settings': settings,
  '20261123_0008_media_hub': mediaHub,
  '20261123_0009_bim': bim,
  '20261123_0010_weather_walls_comments': weatherWallsComments,
  '20261123_0011_connectors': connectors,
  '20261123_0012_site_connectors': siteConnectors,
  '20261124_0001_secrets': secrets,
  '20261124_0002_login_throttle': loginThrottle,
  '20261124_0003_leases': leases,
  '20261124_0004_node_addresses': nodeAddresses,
  '20261125_0001_key_limits': keyLimits,
  '20261125_0002_invitations': invitations,
  '20261128_0001_recorder_links': recorderLinks,
  '20261128_0002_outbox': outbox,
  '20261128_0003_webhooks': webhooks,
  '20261128_0004_mail': mail,
  '20261128_0005_picture_checks': pictureChecks,
  '20261128_0007_gate': gate,
  '20261128_0011_picture_status': pictureStatus,
};
