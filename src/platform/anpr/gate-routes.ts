// The gate report's records in the main API (docs/plates.md, Gate report): corrections of misread
// plates (editors; kept with who made them) and gate cameras' roles (admins). People only: the AI API
// reads them with the person's JWT.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { fromPathCamera, fromPathProject, peopleOnly } from '../access/index.js';
import { errorResponses, Nullable, StringEnum } from '../../lib/http/schemas.js';
import { actingUserId, allowedProject } from '../http/index.js';
import { defineRoutes } from '../plugins/feature.js';
import { GATE_ROLES } from './anpr-tables.js';

const CameraParams = Type.Object({ camera_exid: Type.String({ minLength: 1, maxLength: 64 }) });
const ProjectParams = Type.Object({ exid: Type.String({ minLength: 1, maxLength: 64 }) });
const Id = Type.String({ pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' });
const Correction = Type.Object({
  id: Type.String(),
  event_id: Type.String(),
  camera_exid: Type.String(),
  plate_before: Type.String(),
  plate_after: Type.String(),
  note: Nullable(Type.String()),
  corrected_by: Type.Union([Type.Object({ id: Type.String(), email: Type.String() }), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
});
const Gate = Type.Object({ camera_exid: Type.String(), role: StringEnum(GATE_ROLES), updated_at: Type.String({ format: 'date-time' }) });

export const anprGateRoutes = defineRoutes('anpr-gate-routes', ['anprGates'], async (fastify, { anprGates }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['anpr'];

  app.post(
    '/v2/cameras/:camera_exid/anpr/:eventid/corrections',
    {
      config: { access: peopleOnly({ project: fromPathCamera, role: 'editor' }) },
      schema: {
        tags,
        operationId: 'correctAnprEvent',
        summary: 'Correct a misread plate: the event takes the new plate; the correction is kept with who made it',
        params: Type.Object({ camera_exid: CameraParams.properties.camera_exid, eventid: Id }),
        body: Type.Object(
          { plate: Type.String({ minLength: 1, maxLength: 64 }), note: Type.Optional(Type.String({ maxLength: 500 })) },
          { additionalProperties: false },
        ),
        response: { 201: Correction, ...errorResponses() },
      },
    },
    async (req, reply) => reply.code(201).send(await anprGates.correct(req.params.camera_exid, req.params.eventid, actingUserId(req), req.body)),
  );

  app.get(
    '/v2/projects/:exid/anpr/corrections',
    {
      config: { access: peopleOnly({ project: fromPathProject }) },
      schema: {
        tags,
        operationId: 'listAnprCorrections',
        summary: 'Corrections of misread plates in the project, oldest first (at most 10 000)',
        params: ProjectParams,
        querystring: Type.Object(
          {
            from: Type.Optional(Type.String({ maxLength: 40, description: 'ISO 8601, inclusive (when the correction was made)' })),
            to: Type.Optional(Type.String({ maxLength: 40, description: 'ISO 8601, inclusive' })),
            event_id: Type.Optional(Id),
          },
          { additionalProperties: false },
        ),
        response: { 200: Type.Array(Correction), ...errorResponses() },
      },
    },
    async (req) => anprGates.corrections(allowedProject(req).project.id, req.query),
  );

  app.get(
    '/v2/projects/:exid/anpr/gates',
    {
      config: { access: peopleOnly({ project: fromPathProject }) },
      schema: {
        tags,
        operationId: 'listAnprGates',
        summary: 'The project’s gate cameras and their roles',
        params: ProjectParams,
        response: { 200: Type.Array(Gate), ...errorResponses() },
      },
    },
    async (req) => anprGates.gates(allowedProject(req).project.id),
  );

  app.put(
    '/v2/cameras/:camera_exid/anpr/gate',
    {
      config: { access: peopleOnly({ project: fromPathCamera, role: 'admin' }) },
      schema: {
        tags,
        operationId: 'setAnprGate',
        summary: 'Mark a camera as a gate: entry, exit, or both (each read’s direction decides); none unmarks it',
        params: CameraParams,
        body: Type.Object({ role: StringEnum([...GATE_ROLES, 'none']) }, { additionalProperties: false }),
        response: { 200: Type.Object({ camera_exid: Type.String(), role: Type.String() }), ...errorResponses() },
      },
    },
    async (req) => anprGates.setRole(req.params.camera_exid, actingUserId(req), req.body.role),
  );
});
