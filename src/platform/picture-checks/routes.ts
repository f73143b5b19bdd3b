// The camera's health with its picture checks, the checks' thresholds and reference view, and the
// activity timeline's reads (docs/analysis.md). The health route lives here, not in cameras/, because
// it joins the connection check (cameras) with the picture checks, which sit above cameras.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { fromPathCamera, fromPathProject, peopleOnly, scoped } from '../access/index.js';
import { ActivitySpanQuery as SpanQuery, BusiestMoments as Busiest, CameraActivity, ProjectActivity } from '../../lib/activity/activity-schemas.js';
import { errorResponses, Nullable, StringEnum } from '../../lib/http/schemas.js';
import { allowedProject } from '../http/index.js';
import { defineRoutes } from '../plugins/feature.js';
import { CHECK_STATES, CHECKS } from './picture-checks-tables.js';
import { Thresholds, ThresholdsPatch } from './thresholds.js';

const CameraParams = Type.Object({ camera_exid: Type.String({ minLength: 1, maxLength: 64 }) });
const ProjectParams = Type.Object({ exid: Type.String({ minLength: 1, maxLength: 64 }) });

const PictureCheck = Type.Object({
  check: StringEnum(CHECKS),
  state: StringEnum(CHECK_STATES),
  since: Type.String({ format: 'date-time', description: 'When this state began (RFC 3339)' }),
});
const Health = Type.Object({
  status: Type.Union([Type.Literal('online'), Type.Literal('offline')], { description: 'Whether the camera answers (its connection)' }),
  checked_at: Type.String(),
  latency_ms: Type.Integer(),
  reason: Type.Union([Type.String(), Type.Null()]),
  battery: Type.Union([Type.Object({ voltage: Type.Number(), percentage: Type.Number() }), Type.Null()]),
  picture_status: StringEnum(['ok', 'fault'], { description: '`fault` while any picture check is in fault' }),
  picture_checks: Type.Array(PictureCheck, { description: 'The checks run on the camera’s stored frames; empty until its first frame is analysed' }),
});
const ThresholdsRecord = Type.Object({ thresholds: Thresholds, defaults: Thresholds });

export const pictureCheckRoutes = defineRoutes('picture-check-routes', ['cameras', 'pictureChecks'], async (fastify, { cameras, pictureChecks }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['cameras'];
  const viewer = peopleOnly({ project: fromPathCamera });
  const admin = peopleOnly({ project: fromPathCamera, role: 'admin' });

  app.get(
    '/v2/cameras/:camera_exid/health',
    {
      config: { access: scoped(['cameras:read'], { project: fromPathCamera }) },
      schema: {
        tags,
        operationId: 'getCameraHealth',
        summary: 'Checks the camera for real (snapshot or RTSP port, cached a few seconds), with the picture checks of its stored frames',
        params: CameraParams,
        response: { 200: Health, ...errorResponses() },
      },
    },
    async (req) => {
      const [health, checks] = await Promise.all([cameras.checkHealth(req.params.camera_exid), pictureChecks.checksOf(req.params.camera_exid)]);
      return { ...health, picture_status: checks.some((c) => c.state === 'fault') ? ('fault' as const) : ('ok' as const), picture_checks: checks };
    },
  );

  app.get(
    '/v2/cameras/:camera_exid/picture-checks/thresholds',
    {
      config: { access: viewer },
      schema: {
        tags,
        operationId: 'getPictureCheckThresholds',
        summary: 'The camera’s picture-check thresholds, and the defaults',
        params: CameraParams,
        response: { 200: ThresholdsRecord, ...errorResponses() },
      },
    },
    async (req) => pictureChecks.thresholds(req.params.camera_exid),
  );

  app.patch(
    '/v2/cameras/:camera_exid/picture-checks/thresholds',
    {
      config: { access: admin },
      schema: {
        tags,
        operationId: 'updatePictureCheckThresholds',
        summary: 'Change some of the camera’s picture-check thresholds (project admins and the owner)',
        params: CameraParams,
        body: ThresholdsPatch,
        response: { 200: ThresholdsRecord, ...errorResponses() },
      },
    },
    async (req) => pictureChecks.updateThresholds(req.params.camera_exid, req.body),
  );

  app.post(
    '/v2/cameras/:camera_exid/picture-checks/reference',
    {
      config: { access: admin },
      schema: {
        tags,
        operationId: 'resetPictureReference',
        summary: 'Take the camera’s latest analysed frame as its reference view (ends a `moved` fault)',
        params: CameraParams,
        response: {
          200: Type.Object({ reference_at: Nullable(Type.String()), moved: Nullable(PictureCheck) }),
          ...errorResponses(),
        },
      },
    },
    async (req) => pictureChecks.resetReference(req.params.camera_exid),
  );

  app.get(
    '/v2/cameras/:camera_exid/activity',
    {
      config: { access: viewer },
      schema: {
        tags,
        operationId: 'getCameraActivity',
        summary: 'The camera’s activity per quarter hour over a local day or a range',
        params: CameraParams,
        querystring: Type.Object(SpanQuery),
        response: { 200: CameraActivity, ...errorResponses() },
      },
    },
    async (req) => pictureChecks.cameraActivity(req.params.camera_exid, req.query),
  );

  app.get(
    '/v2/projects/:exid/activity',
    {
      config: { access: peopleOnly({ project: fromPathProject }) },
      schema: {
        tags,
        operationId: 'getProjectActivity',
        summary: 'The activity of the project’s cameras per quarter hour over a local day or a range',
        params: ProjectParams,
        querystring: Type.Object(SpanQuery),
        response: { 200: ProjectActivity, ...errorResponses() },
      },
    },
    async (req) => pictureChecks.projectActivity(allowedProject(req).project.id, req.query),
  );

  app.get(
    '/v2/projects/:exid/activity/busiest',
    {
      config: { access: peopleOnly({ project: fromPathProject }) },
      schema: {
        tags,
        operationId: 'getProjectBusiestMoments',
        summary: 'The busiest quarter hours of the project’s cameras, busiest first',
        params: ProjectParams,
        querystring: Type.Object({
          ...SpanQuery,
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 5 })),
          camera_exid: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Only this camera of the project' })),
        }),
        response: { 200: Busiest, ...errorResponses() },
      },
    },
    async (req) => pictureChecks.busiest(allowedProject(req).project.id, req.query),
  );
});
