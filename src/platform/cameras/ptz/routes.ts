import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { fromPathCamera, scoped } from '../../access/index.js';
import { errorResponses, Nullable, StringEnum } from '../../../lib/http/schemas.js';
import { PRESET_TOKEN_PATTERN, PTZ_DIRECTIONS, ZOOM_MODES } from './ptz-control.js';
import { defineRoutes } from '../../plugins/feature.js';

const CameraParams = Type.Object({ camera_exid: Type.String({ minLength: 1, maxLength: 64 }) });
const PresetToken = Type.String({ pattern: PRESET_TOKEN_PATTERN, description: 'A preset token as the camera issued it' });
const PresetParams = Type.Object({ camera_exid: CameraParams.properties.camera_exid, preset_token: PresetToken });

const Position = Type.Object({
  pan: Type.Number({ description: 'Pan, -1 (left) to 1 (right)' }),
  tilt: Type.Number({ description: 'Tilt, -1 (down) to 1 (up)' }),
  zoom: Type.Number({ description: 'Zoom, 0 (wide) to 1 (tele)' }),
});
const Status = Type.Object(
  {
    pan: Type.Number(),
    tilt: Type.Number(),
    zoom: Type.Number(),
    moving: Type.Boolean({ description: 'A continuous move is under way' }),
    utc_time: Type.String(),
  },
  { description: 'Where the camera points, in ONVIF generic spaces' },
);
const Preset = Type.Object({ token: Type.String(), name: Type.String(), position: Type.Union([Position, Type.Null()]) });
const Presets = Type.Object({ presets: Type.Array(Preset) });
const Nodes = Type.Object({
  nodes: Type.Array(
    Type.Object({ token: Type.String(), name: Nullable(Type.String()), max_presets: Nullable(Type.Integer()), home_supported: Type.Boolean() }),
  ),
});
const Configurations = Type.Object({
  configurations: Type.Array(
    Type.Object({ token: Type.String(), name: Nullable(Type.String()), node_token: Nullable(Type.String()), default_timeout: Nullable(Type.String()) }),
  ),
});
const Speed = Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1, description: 'Fraction of full speed; default 0.5' }));
const SpeedQuery = Type.Object({ speed: Speed }, { additionalProperties: false });
const Step = Type.Number({ minimum: -1, maximum: 1 });
const RelativeBody = Type.Object(
  { pan: Type.Optional(Step), tilt: Type.Optional(Step), zoom: Type.Optional(Step) },
  { additionalProperties: false, minProperties: 1, description: 'Translation as fractions of the ranges (the result is clamped)' },
);
const CreateBody = Type.Object({ name: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });

export const ptzRoutes = defineRoutes('ptz-routes', ['ptz'], async (fastify, { ptz }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['ptz'];
  const read = scoped(['camera:ptz'], { project: fromPathCamera, role: 'viewer' });
  const control = scoped(['camera:ptz'], { project: fromPathCamera, role: 'editor' });
  const errors = errorResponses(409, 502, 504);
  const base = '/v2/cameras/:camera_exid/ptz';

  app.get(
    `${base}/status`,
    {
      config: { access: read },
      schema: {
        tags,
        operationId: 'getPtzStatus',
        summary: 'Where the camera points and whether it moves',
        params: CameraParams,
        response: { 200: Status, ...errors },
      },
    },
    (req) => ptz.status(req.params.camera_exid),
  );
  app.get(
    `${base}/presets`,
    {
      config: { access: read },
      schema: { tags, operationId: 'listPtzPresets', summary: 'The camera’s presets', params: CameraParams, response: { 200: Presets, ...errors } },
    },
    (req) => ptz.presets(req.params.camera_exid),
  );
  app.get(
    `${base}/nodes`,
    {
      config: { access: read },
      schema: { tags, operationId: 'listPtzNodes', summary: 'The camera’s PTZ nodes (heads)', params: CameraParams, response: { 200: Nodes, ...errors } },
    },
    (req) => ptz.nodes(req.params.camera_exid),
  );
  app.get(
    `${base}/configurations`,
    {
      config: { access: read },
      schema: {
        tags,
        operationId: 'listPtzConfigurations',
        summary: 'The camera’s PTZ configurations',
        params: CameraParams,
        response: { 200: Configurations, ...errors },
      },
    },
    (req) => ptz.configurations(req.params.camera_exid),
  );

  app.post(
    `${base}/home`,
    {
      config: { access: control },
      schema: { tags, operationId: 'ptzGotoHome', summary: 'Go to the home position', params: CameraParams, response: { 200: Status, ...errors } },
    },
    (req) => ptz.home(req.params.camera_exid),
  );
  app.post(
    `${base}/home/set`,
    {
      config: { access: control },
      schema: {
        tags,
        operationId: 'ptzSetHome',
        summary: 'Make the current position the home position',
        params: CameraParams,
        response: { 200: Status, ...errors },
      },
    },
    (req) => ptz.setHome(req.params.camera_exid),
  );
  app.post(
    `${base}/relative`,
    {
      config: { access: control },
      schema: {
        tags,
        operationId: 'ptzRelativeMove',
        summary: 'Move by a translation',
        params: CameraParams,
        body: RelativeBody,
        response: { 200: Status, ...errors },
      },
    },
    (req) => ptz.relative(req.params.camera_exid, req.body),
  );
  app.post(
    `${base}/continuous/start/:direction`,
    {
      config: { access: control },
      schema: {
        tags,
        operationId: 'ptzContinuousStart',
        summary: 'Start moving in a direction until stopped',
        params: Type.Object({ camera_exid: CameraParams.properties.camera_exid, direction: StringEnum(PTZ_DIRECTIONS) }),
        querystring: SpeedQuery,
        response: { 200: Status, ...errors },
      },
    },
    (req) => ptz.continuousStart(req.params.camera_exid, req.params.direction, req.query.speed),
  );
  app.post(
    `${base}/continuous/stop`,
    {
      config: { access: control },
      schema: {
        tags,
        operationId: 'ptzContinuousStop',
        summary: 'Stop every pan, tilt and zoom movement',
        params: CameraParams,
        response: { 200: Status, ...errors },
      },
    },
    (req) => ptz.continuousStop(req.params.camera_exid),
  );
  app.post(
    `${base}/continuous/zoom/:mode`,
    {
      config: { access: control },
      schema: {
        tags,
        operationId: 'ptzContinuousZoom',
        summary: 'Start zooming in or out until stopped (mode stop stops zooming)',
        params: Type.Object({ camera_exid: CameraParams.properties.camera_exid, mode: StringEnum(ZOOM_MODES) }),
        querystring: SpeedQuery,
        response: { 200: Status, ...errors },
      },
    },
    (req) => ptz.continuousZoom(req.params.camera_exid, req.params.mode, req.query.speed),
  );
  app.post(
    `${base}/presets/create`,
    {
      config: { access: control },
      schema: {
        tags,
        operationId: 'createPtzPreset',
        summary: 'Save the current position as a new preset',
        params: CameraParams,
        body: CreateBody,
        response: { 201: Preset, ...errors },
      },
    },
    async (req, reply) => reply.code(201).send(await ptz.createPreset(req.params.camera_exid, req.body.name)),
  );
  app.post(
    `${base}/presets/go/:preset_token`,
    {
      config: { access: control },
      schema: { tags, operationId: 'ptzGotoPreset', summary: 'Go to a preset', params: PresetParams, response: { 200: Status, ...errors } },
    },
    (req) => ptz.gotoPreset(req.params.camera_exid, req.params.preset_token),
  );
  app.post(
    `${base}/presets/:preset_token/set`,
    {
      config: { access: control },
      schema: {
        tags,
        operationId: 'updatePtzPreset',
        summary: 'Overwrite a preset with the current position',
        params: PresetParams,
        response: { 200: Preset, ...errors },
      },
    },
    (req) => ptz.setPreset(req.params.camera_exid, req.params.preset_token),
  );
  app.delete(
    `${base}/presets/:preset_token/remove`,
    {
      config: { access: control },
      schema: { tags, operationId: 'removePtzPreset', summary: 'Remove a preset', params: PresetParams, response: { 204: Type.Null(), ...errors } },
    },
    async (req, reply) => {
      await ptz.removePreset(req.params.camera_exid, req.params.preset_token);
      return reply.code(204).send(null);
    },
  );
});
