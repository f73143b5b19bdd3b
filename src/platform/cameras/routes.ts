import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { fromBodyProject, fromPathCamera, fromPathProject, listOfProjects, peopleOnly, scoped } from '../access/index.js';
import { errorResponses, Nullable } from '../../lib/http/schemas.js';
import { actingUserId, allowedProject } from '../http/index.js';
import { ReadingsPage, ReadingsQuery } from '../projects/index.js';
import { CameraRecord } from './camera-record.js';
import { defineRoutes } from '../plugins/feature.js';

const CameraParams = Type.Object({ camera_exid: Type.String({ minLength: 1, maxLength: 64 }) });
const Url = Type.String({ minLength: 1, maxLength: 2048 });
const CreateBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    project_exid: Type.String({ minLength: 1, maxLength: 64 }),
    simulated: Type.Optional(Type.Boolean({ description: 'Attach the built-in simulated camera' })),
    timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    location: Type.Optional(
      Type.Object({ lat: Type.Number({ minimum: -90, maximum: 90 }), lng: Type.Number({ minimum: -180, maximum: 180 }) }, { additionalProperties: false }),
    ),
    is_public: Type.Optional(Type.Boolean()),
    snapshot_url: Type.Optional(Url),
    rtsp_url: Type.Optional(Url),
    onvif_url: Type.Optional(Url),
    username: Type.Optional(Type.String({ maxLength: 200 })),
    password: Type.Optional(Type.String({ maxLength: 200, description: 'Write-only: never returned' })),
  },
  { additionalProperties: false },
);
const Note = Type.Object({ id: Type.String(), content: Type.String(), created_at: Type.String(), author_email: Type.Union([Type.String(), Type.Null()]) });
const RangeQuery = Type.Object({ from: Type.Optional(Type.String({ maxLength: 40 })), to: Type.Optional(Type.String({ maxLength: 40 })) });
const DayStat = Type.Object({ day: Type.String(), min_voltage: Type.Number(), max_voltage: Type.Number(), avg_voltage: Type.Number(), count: Type.Integer() });
const VoltageSummary = Type.Object({
  count: Type.Integer(),
  min_voltage: Nullable(Type.Number()),
  max_voltage: Nullable(Type.Number()),
  avg_voltage: Nullable(Type.Number()),
  latest: Type.Union([Type.Object({ voltage: Type.Number(), percentage: Type.Union([Type.Number(), Type.Null()]), recorded_at: Type.String() }), Type.Null()]),
  days: Type.Array(DayStat),
});

export const cameraRoutes = defineRoutes('camera-routes', ['cameras', 'directory'], async (fastify, { cameras, directory }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['cameras'];
  const read = scoped(['cameras:read'], { project: fromPathCamera });
  const exidOf = (req: { params: { camera_exid: string } }) => req.params.camera_exid;

  app.get(
    '/v2/cameras',
    {
      config: { access: scoped(['projects:read', 'cameras:read'], { project: listOfProjects }) },
      schema: {
        tags,
        operationId: 'listCameras',
        summary: 'Cameras of the caller’s projects',
        response: { 200: Type.Array(CameraRecord), ...errorResponses() },
      },
    },
    async (req) => cameras.list(await directory.visibleProjects(req.principal)),
  );

  app.get(
    '/v2/projects/:exid/cameras',
    {
      config: { access: scoped(['projects:read', 'cameras:read'], { project: fromPathProject }) },
      schema: {
        tags,
        operationId: 'listProjectCameras',
        summary: 'The cameras of a project',
        params: Type.Object({ exid: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: { 200: Type.Array(CameraRecord), ...errorResponses() },
      },
    },
    async (req) => cameras.list(await directory.visibleProjects(req.principal), allowedProject(req).project.id),
  );

  app.post(
    '/v2/cameras',
    {
      config: { access: peopleOnly({ project: fromBodyProject, role: 'admin' }) },
      schema: {
        tags,
        operationId: 'createCamera',
        summary: 'Add a camera to a project: the simulated camera, or a real one with its connection details',
        body: CreateBody,
        response: { 201: CameraRecord, ...errorResponses() },
      },
    },
    async (req, reply) => {
      const { snapshot_url, rtsp_url, onvif_url, username, password, ...rest } = req.body;
      const camera = await cameras.create(actingUserId(req), {
        ...rest,
        project: allowedProject(req).project,
        connection: { snapshot_url, rtsp_url, onvif_url, username, password },
      });
      return reply.code(201).send(camera);
    },
  );

  app.get(
    '/v2/cameras/:camera_exid',
    {
      config: { access: read },
      schema: { tags, operationId: 'getCamera', summary: 'One camera', params: CameraParams, response: { 200: CameraRecord, ...errorResponses() } },
    },
    async (req) => cameras.get(exidOf(req)),
  );

  app.get(
    '/v2/cameras/:camera_exid/last-public-note',
    {
      config: { access: read },
      schema: {
        tags,
        operationId: 'getCameraLastPublicNote',
        summary: 'The latest public note left on a camera',
        params: CameraParams,
        response: { 200: Note, ...errorResponses() },
      },
    },
    async (req) => cameras.lastPublicNote(exidOf(req)),
  );

  app.post(
    '/v2/cameras/:camera_exid/notes',
    {
      config: { access: peopleOnly({ project: fromPathCamera, role: 'editor' }) },
      schema: {
        tags,
        operationId: 'createCameraNote',
        summary: 'Leave a note on a camera (public notes show as its last public note)',
        params: CameraParams,
        body: Type.Object(
          { content: Type.String({ minLength: 1, maxLength: 2000 }), is_public: Type.Optional(Type.Boolean()) },
          { additionalProperties: false },
        ),
        response: {
          201: Type.Object({ id: Type.String(), content: Type.String(), is_public: Type.Boolean(), created_at: Type.String() }),
          ...errorResponses(),
        },
      },
    },
    async (req, reply) => reply.code(201).send(await cameras.addNote(exidOf(req), actingUserId(req), req.body)),
  );

  app.get(
    '/v2/cameras/:camera_exid/battery-readings',
    {
      config: { access: read },
      schema: {
        tags,
        operationId: 'listCameraBatteryReadings',
        summary: 'A camera’s battery readings, a page at a time',
        params: CameraParams,
        querystring: ReadingsQuery,
        response: { 200: ReadingsPage, ...errorResponses() },
      },
    },
    async (req) =>
      cameras.cameraReadings(exidOf(req), { from: req.query.from, to: req.query.to, page: req.query.page ?? 1, pageSize: req.query.page_size ?? 50 }),
  );

  app.get(
    '/v2/cameras/:camera_exid/battery-readings/voltage-summary',
    {
      config: { access: read },
      schema: {
        tags,
        operationId: 'getCameraVoltageSummary',
        summary: 'Voltage over a range: overall and per day (UTC)',
        params: CameraParams,
        querystring: RangeQuery,
        response: { 200: VoltageSummary, ...errorResponses() },
      },
    },
    async (req) => cameras.voltageSummary(exidOf(req), req.query),
  );
});
