// The ONVIF passthrough (camera:live_view, docs/cameras.md): forwards read-only operations to a camera's
// ONVIF services and answers the parsed SOAP body as JSON. Live-view keys must never change a device,
// so only Get… operations pass, minus those that reveal secrets or configuration dumps; everything
// else is refused before the camera is contacted.
import { ApiError, validation } from '../../../lib/errors.js';
import type { OnvifService } from '../connection/camera-connection.js';
import type { CamerasService } from '../cameras-service.js';
import type { CameraConnections } from '../connection/connections.js';

/** Path names accepted for each service: the short name and the usual `…_service` endpoint names. */
const SERVICE_NAMES: Record<string, OnvifService> = {
  device: 'device',
  device_service: 'device',
  devicemgmt: 'device',
  media: 'media',
  media_service: 'media',
  media2: 'media2',
  media2_service: 'media2',
  ptz: 'ptz',
  ptz_service: 'ptz',
  imaging: 'imaging',
  imaging_service: 'imaging',
  events: 'events',
  event_service: 'events',
  deviceio: 'deviceio',
  deviceio_service: 'deviceio',
  analytics: 'analytics',
  analytics_service: 'analytics',
  recording: 'recording',
  recording_service: 'recording',
  search: 'search',
  search_service: 'search',
  replay: 'replay',
  replay_service: 'replay',
};

/** Get… operations that still must not pass: accounts, keys and certificates, backups and logs. */
const SECRET_OPERATIONS = new Set(
  [
    'GetUsers',
    'GetRemoteUser',
    'GetSystemBackup',
    'GetSystemLog',
    'GetSystemSupportInformation',
    'GetSystemUris',
    'GetPkcs10Request',
    'GetCertificates',
    'GetCACertificates',
    'GetCertificatesStatus',
    'GetCertificateInformation',
    'GetClientCertificateMode',
    'GetDot1XConfiguration',
    'GetDot1XConfigurations',
    'GetStorageConfiguration',
    'GetStorageConfigurations',
    'GetAccessPolicy',
    'GetAuthFailureWarningConfiguration',
    'GetPasswordComplexityConfiguration',
    'GetPasswordHistoryConfiguration',
  ].map((s) => s.toLowerCase()),
);

const READ_OPERATION = /^Get[A-Z][A-Za-z0-9]{0,63}$/;
const ARG_NAME = /^[A-Z][A-Za-z0-9]{0,63}$/;
const MAX_ARGS = 10;

/** Throws 403 unless the operation only reads and reveals no secret. */
function checkReadOnly(operation: string): void {
  if (!READ_OPERATION.test(operation)) {
    throw new ApiError('ONVIF_OPERATION_NOT_ALLOWED', `The ONVIF passthrough forwards read-only operations (Get…) only; ${operation.slice(0, 64)} is refused`);
  }
  if (SECRET_OPERATIONS.has(operation.toLowerCase())) {
    throw new ApiError('ONVIF_OPERATION_NOT_ALLOWED', `${operation} reveals credentials or device secrets and is refused`);
  }
}

/** Removes user:password@ from any URL in the answer (some cameras put credentials in stream URIs). */
function scrub(v: unknown): unknown {
  if (typeof v === 'string') return v.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/gi, '$1');
  if (Array.isArray(v)) return v.map(scrub);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, scrub(x)]));
  return v;
}

export class OnvifPassthroughService {
  constructor(
    private readonly cameras: CamerasService,
    private readonly connections: CameraConnections,
  ) {}

  async call(exid: string, servicePath: string, operation: string, query: Record<string, string>): Promise<Record<string, unknown>> {
    const service = SERVICE_NAMES[servicePath.toLowerCase()];
    if (!service || !Object.hasOwn(SERVICE_NAMES, servicePath.toLowerCase())) {
      throw new ApiError('NOT_FOUND', `Unknown ONVIF service ${servicePath.slice(0, 64)}; use one of ${[...new Set(Object.values(SERVICE_NAMES))].join(', ')}`);
    }
    checkReadOnly(operation);
    const args: Record<string, string> = {};
    for (const [name, value] of Object.entries(query)) {
      if (name === 'camera_exid') continue;
      if (!ARG_NAME.test(name)) throw validation(name.slice(0, 64), 'ONVIF arguments are element names such as ProfileToken');
      if (typeof value !== 'string') throw validation(name, 'must be given once');
      args[name] = value;
    }
    if (Object.keys(args).length > MAX_ARGS) throw validation('query', `at most ${MAX_ARGS} ONVIF arguments`);

    const gateway = this.connections.connect(await this.cameras.row(exid)).onvif();
    if (!gateway) throw new ApiError('BAD_REQUEST', 'This camera has no ONVIF address (onvif_url)');
    if (!(await gateway.services()).includes(service)) throw new ApiError('NOT_FOUND', `This camera does not offer the ONVIF ${service} service`);
    return scrub(await gateway.call(service, operation, args)) as Record<string, unknown>;
  }
}
