// The platform's database type, composed from the tables each feature declares beside its repository,
// and the runtime declarations the schema test compares with the migrated database.
import type { Db } from '../lib/db/index.js';
import { anprTables, type AnprTables } from './anpr/anpr-tables.js';
import { apiKeysTables, type ApiKeysTables } from './api-keys/api-keys-tables.js';
import { auditTables, type AuditTables } from './audit/audit-tables.js';
import { authTables, type AuthTables } from './auth/auth-tables.js';
import { bimTables, type BimTables } from './bim/bim-tables.js';
import { camerasTables, type CamerasTables } from './cameras/cameras-tables.js';
import { commentsTables, type CommentsTables } from './comments/comments-tables.js';
import { connectorsTables, type ConnectorsTables } from './connectors/framework/connectors-tables.js';
import { siteLinksTables, type SiteLinksTables } from './connectors/voyage-control/site-links-tables.js';
import { mailTables, type MailTables } from './mail/mail-tables.js';
import { mediaHubTables, type MediaHubTables } from './media-hub/media-hub-tables.js';
import { membersTables, type MembersTables } from './members/members-tables.js';
import { notificationsTables, type NotificationsTables } from './notifications/notifications-tables.js';
import { oauthTables, type OauthTables } from './oauth/oauth-tables.js';
import { outboxTables, type OutboxTables } from './outbox/outbox-tables.js';
import { progressPhotosTables, type ProgressPhotosTables } from './progress-photos/progress-photos-tables.js';
import { pictureChecksTables, type PictureChecksTables } from './picture-checks/picture-checks-tables.js';
import { projectsTables, type ProjectsTables } from './projects/projects-tables.js';
import { recorderLinksTables, type RecorderLinksTables } from './recorder-links/recorder-links-tables.js';
import { recordingsTables, type RecordingsTables } from './recordings/recordings-tables.js';
import { secretsTables, type SecretsTables } from './secrets/secrets-tables.js';
import { usersTables, type UsersTables } from './users/users-tables.js';
import { videoWallsTables, type VideoWallsTables } from './video-walls/video-walls-tables.js';
import { weatherTables, type WeatherTables } from './weather/weather-tables.js';
import { webhooksTables, type WebhooksTables } from './webhooks/webhooks-tables.js';
import { workTables, type WorkTables } from './work/work-tables.js';

export const platformTables = {
  ...usersTables,
  ...authTables,
  ...auditTables,
  ...notificationsTables,
  ...projectsTables,
  ...membersTables,
  ...camerasTables,
  ...progressPhotosTables,
  ...apiKeysTables,
  ...recordingsTables,
  ...anprTables,
  ...bimTables,
  ...oauthTables,
  ...connectorsTables,
  ...siteLinksTables,
  ...mediaHubTables,
  ...weatherTables,
  ...videoWallsTables,
  ...commentsTables,
  ...secretsTables,
  ...workTables,
  ...outboxTables,
  ...webhooksTables,
  ...mailTables,
  ...recorderLinksTables,
  ...pictureChecksTables,
};

export interface PlatformDatabase
  extends UsersTables,
    AuthTables,
    AuditTables,
    NotificationsTables,
    ProjectsTables,
    MembersTables,
    CamerasTables,
    ProgressPhotosTables,
    ApiKeysTables,
    RecordingsTables,
    AnprTables,
    BimTables,
    OauthTables,
    ConnectorsTables,
    SiteLinksTables,
    MediaHubTables,
    WeatherTables,
    VideoWallsTables,
    CommentsTables,
    SecretsTables,
    WorkTables,
    OutboxTables,
    WebhooksTables,
    MailTables,
    RecorderLinksTables,
    PictureChecksTables {}

export type PlatformDb = Db<PlatformDatabase>;
