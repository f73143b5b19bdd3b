import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { fromPathCamera, peopleOnly, scoped } from '../access/index.js';
import { errorResponses } from '../../lib/http/schemas.js';
import { actingUserId } from '../http/index.js';
import { RecordingSettings, RecordingSettingsUpdate } from './recording-settings.js';
import { CapturedSnapshot } from './manual-capture.js';
import { defineRoutes } from '../plugins/feature.js';

const CameraParams = Type.Object({ camera_exid: Type.String({ minLength: 1, maxLength: 64 }) });

export const recordingWriteRoutes = defineRoutes(
  'recording-write-routes',
  ['recordingSettings', 'manualCapture'],
  async (fastify, { recordingSettings, manualCapture }) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const tags = ['recordings'];

    app.get(
      '/v2/cameras/:camera_exid/cloud-recordings',
      {
        config: { access: peopleOnly({ project: fromPathCamera, role: 'viewer' }) },
        schema: {
          tags,
          operationId: 'getCloudRecordingSettings',
          summary: 'A camera’s cloud recording settings: status, frequency (snapshots a minute), storage duration (days, -1 forever), weekly schedule',
          params: CameraParams,
          response: { 200: RecordingSettings, ...errorResponses() },
        },
      },
      async (req) => recordingSettings.get(req.params.camera_exid),
    );

    app.put(
      '/v2/cameras/:camera_exid/cloud-recordings',
      {
        config: { access: peopleOnly({ project: fromPathCamera, role: 'admin' }) },
        schema: {
          tags,
          operationId: 'updateCloudRecordingSettings',
          summary: 'Change a camera’s cloud recording settings; the recorder picks them up at once',
          params: CameraParams,
          body: RecordingSettingsUpdate,
          response: { 200: RecordingSettings, ...errorResponses() },
        },
      },
      async (req) => recordingSettings.update(req.params.camera_exid, actingUserId(req), req.body),
    );

    app.post(
      '/v2/cameras/:camera_exid/snapshots',
      {
        config: { access: scoped(['camera:recordings'], { project: fromPathCamera, role: 'editor' }) },
        schema: {
          tags,
          operationId: 'captureSnapshot',
          summary: 'Take a snapshot from the camera now and store it in its recordings (502/504 when the camera fails)',
          params: CameraParams,
          body: Type.Object(
            { note: Type.Optional(Type.String({ maxLength: 1000 })) },
            { additionalProperties: false, description: 'Optional; no body at all is the same as {}' },
          ),
          response: { 201: CapturedSnapshot, ...errorResponses(502, 504) },
        },
        // No body at all means no note (after the access hook, before validation).
        preValidation: async (req) => {
          if (req.body === undefined || req.body === null) (req as { body: unknown }).body = {};
        },
      },
      async (req, reply) => {
        const note = req.body.note?.trim() || null;
        return reply.code(201).send(await manualCapture.capture(req.params.camera_exid, actingUserId(req), note));
      },
    );
  },
);
