import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { fromPathCamera, scoped, type Role } from '../access/index.js';
import { errorResponses, Nullable } from '../../lib/http/schemas.js';
import { PageQuery } from '../../lib/http/pagination.js';
import { AuditPage } from '../audit/index.js';
import { RecordingSettings, RecordingSettingsUpdate } from '../recordings/index.js';
import { CameraSettings } from './camera-settings-service.js';
import { settingsActor } from '../projects/index.js';
import { defineRoutes } from '../plugins/feature.js';

const Params = Type.Object({ camera_exid: Type.String({ minLength: 1, maxLength: 64 }) });
const Url = (what: string) => Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 2048, description: what })));
const ConnectionBody = Type.Object(
  {
    snapshot_url: Url('http(s) URL of a JPEG snapshot, without credentials'),
    rtsp_url: Url('rtsp(s) URL of the stream, without credentials'),
    onvif_url: Url('http(s) URL of the ONVIF device service'),
    username: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 200 }))),
    password: Type.Optional(
      Nullable(Type.String({ minLength: 1, maxLength: 200, description: 'Write-only. Left out: the stored one is kept (same username); null clears it' })),
    ),
  },
  { additionalProperties: false },
);
const Health = Type.Object({
  status: Type.String(),
  checked_at: Type.String(),
  latency_ms: Type.Number(),
  reason: Nullable(Type.String()),
  battery: Nullable(Type.Object({ voltage: Type.Number(), percentage: Type.Number() })),
  tested: Type.String({ description: 'stored: the saved connection; given: the body’s details (not saved)' }),
});

export const cameraSettingsRoutes = defineRoutes('camera-settings-routes', ['cameraSettings'], async (fastify, { cameraSettings }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['settings'];
  const settings = (role: Role) => ({ access: scoped(['project:settings'], { project: fromPathCamera, role }) });
  const exid = (req: { params: { camera_exid: string } }) => req.params.camera_exid;

  app.get(
    '/v2/cameras/:camera_exid/settings',
    {
      config: settings('admin'),
      schema: {
        tags,
        operationId: 'getCameraSettings',
        summary: 'Every setting of the camera, with its connection (never the password) and recording',
        params: Params,
        response: { 200: CameraSettings, ...errorResponses() },
      },
    },
    async (req) => cameraSettings.get(exid(req)),
  );

  app.patch(
    '/v2/cameras/:camera_exid/settings',
    {
      config: settings('admin'),
      schema: {
        tags,
        operationId: 'renameCamera',
        summary: 'Rename the camera',
        params: Params,
        body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }),
        response: { 200: CameraSettings, ...errorResponses() },
      },
    },
    async (req) => cameraSettings.rename(settingsActor(req), exid(req), req.body.name),
  );

  app.patch(
    '/v2/cameras/:camera_exid/settings/location',
    {
      config: settings('admin'),
      schema: {
        tags,
        operationId: 'setCameraLocation',
        summary: 'Place the camera on the map (null removes its location)',
        params: Params,
        body: Type.Object(
          {
            location: Nullable(
              Type.Object(
                { lat: Type.Number({ minimum: -90, maximum: 90 }), lng: Type.Number({ minimum: -180, maximum: 180 }) },
                { additionalProperties: false },
              ),
            ),
          },
          { additionalProperties: false },
        ),
        response: { 200: CameraSettings, ...errorResponses() },
      },
    },
    async (req) => cameraSettings.locate(settingsActor(req), exid(req), req.body.location),
  );

  app.patch(
    '/v2/cameras/:camera_exid/settings/orientation',
    {
      config: settings('admin'),
      schema: {
        tags,
        operationId: 'setCameraOrientation',
        summary: 'Where the camera looks, for maps: heading (degrees from north) and horizontal field of view; null clears',
        params: Params,
        body: Type.Object(
          {
            heading: Type.Optional(Nullable(Type.Number({ minimum: 0, exclusiveMaximum: 360 }))),
            fov: Type.Optional(Nullable(Type.Number({ exclusiveMinimum: 0, maximum: 360 }))),
          },
          { additionalProperties: false, minProperties: 1 },
        ),
        response: { 200: CameraSettings, ...errorResponses() },
      },
    },
    async (req) => cameraSettings.orient(settingsActor(req), exid(req), req.body),
  );

  app.patch(
    '/v2/cameras/:camera_exid/settings/timezone',
    {
      config: settings('admin'),
      schema: {
        tags,
        operationId: 'setCameraTimezone',
        summary: 'The camera’s IANA time zone (recording schedules and local-day browsing follow it)',
        params: Params,
        body: Type.Object({ timezone: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false }),
        response: { 200: CameraSettings, ...errorResponses() },
      },
    },
    async (req) => cameraSettings.setTimezone(settingsActor(req), exid(req), req.body.timezone),
  );

  app.patch(
    '/v2/cameras/:camera_exid/settings/visibility',
    {
      config: settings('admin'),
      schema: {
        tags,
        operationId: 'setCameraVisibility',
        summary: 'Make the camera public or private',
        params: Params,
        body: Type.Object({ is_public: Type.Boolean() }, { additionalProperties: false }),
        response: { 200: CameraSettings, ...errorResponses() },
      },
    },
    async (req) => cameraSettings.setVisibility(settingsActor(req), exid(req), req.body.is_public),
  );

  app.put(
    '/v2/cameras/:camera_exid/settings/connection',
    {
      config: settings('admin'),
      schema: {
        tags,
        operationId: 'setCameraConnection',
        summary: 'Replace how the platform reaches the camera (a simulated camera becomes a real one); its live stream restarts',
        params: Params,
        body: ConnectionBody,
        response: { 200: CameraSettings, ...errorResponses() },
      },
    },
    async (req) => cameraSettings.setConnection(settingsActor(req), exid(req), req.body),
  );

  app.post(
    '/v2/cameras/:camera_exid/settings/connection/check',
    {
      config: settings('admin'),
      schema: {
        tags,
        operationId: 'checkCameraConnection',
        summary: 'Try connection details without saving them (an empty body tries the stored ones); answers online or offline with the reason',
        params: Params,
        body: ConnectionBody,
        response: { 200: Health, ...errorResponses() },
      },
      preValidation: async (req) => {
        if (req.body === undefined || req.body === null) (req as { body: unknown }).body = {};
      },
    },
    async (req) => cameraSettings.checkConnection(exid(req), req.body),
  );

  app.get(
    '/v2/cameras/:camera_exid/settings/recording',
    {
      config: settings('admin'),
      schema: {
        tags,
        operationId: 'getCameraRecordingSettings',
        summary: 'The camera’s cloud recording settings',
        params: Params,
        response: { 200: RecordingSettings, ...errorResponses() },
      },
    },
    async (req) => cameraSettings.recording(exid(req)),
  );

  app.patch(
    '/v2/cameras/:camera_exid/settings/recording',
    {
      config: settings('admin'),
      schema: {
        tags,
        operationId: 'updateCameraRecordingSettings',
        summary: 'Change cloud recording (status, frequency, storage duration, schedule); the recorder picks it up at once',
        params: Params,
        body: RecordingSettingsUpdate,
        response: { 200: RecordingSettings, ...errorResponses() },
      },
    },
    async (req) => cameraSettings.setRecording(settingsActor(req), exid(req), req.body),
  );

  app.get(
    '/v2/cameras/:camera_exid/settings/history',
    {
      config: settings('admin'),
      schema: {
        tags,
        operationId: 'cameraSettingsHistory',
        summary: 'Audit events of the camera’s settings, newest first',
        params: Params,
        querystring: Type.Object({ ...PageQuery }, { additionalProperties: false }),
        response: { 200: AuditPage, ...errorResponses() },
      },
    },
    async (req) => cameraSettings.history(exid(req), { page: req.query.page ?? 1, pageSize: req.query.page_size ?? 50 }),
  );

  app.delete(
    '/v2/cameras/:camera_exid',
    {
      config: settings('admin'),
      schema: {
        tags,
        operationId: 'deleteCamera',
        summary: 'Delete the camera with its recordings, plate images and every stored file; its live stream stops',
        params: Params,
        response: { 204: Type.Null(), ...errorResponses() },
      },
    },
    async (req, reply) => {
      await cameraSettings.delete(settingsActor(req), exid(req));
      return reply.code(204).send(null);
    },
  );
});
