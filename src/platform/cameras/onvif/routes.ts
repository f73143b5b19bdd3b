import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { fromQueryCamera, scoped } from '../../access/index.js';
import { errorResponses } from '../../../lib/http/schemas.js';
import { defineRoutes } from '../../plugins/feature.js';

export const onvifRoutes = defineRoutes('onvif-routes', ['onvif'], async (fastify, { onvif }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/v2/onvif/v20/:service/:operation',
    {
      config: { access: scoped(['camera:live_view'], { project: fromQueryCamera }) },
      schema: {
        tags: ['onvif'],
        operationId: 'onvifPassthrough',
        summary: 'Run a read-only ONVIF operation (Get…) on a camera and answer its SOAP body as JSON',
        description:
          'Services: device, media, media2, ptz, imaging, events, deviceio, analytics, recording, search, replay (also as `<name>_service`), as the camera advertises them. ' +
          'Operations that change the device (anything not Get…) and those revealing secrets (GetUsers, certificates, backups, logs) answer 403 ONVIF_OPERATION_NOT_ALLOWED. ' +
          'Other query parameters are passed as the operation’s arguments.',
        params: Type.Object({ service: Type.String({ minLength: 1, maxLength: 64 }), operation: Type.String({ minLength: 1, maxLength: 128 }) }),
        querystring: Type.Object({ camera_exid: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: Type.String({ maxLength: 256 }) }),
        response: {
          200: Type.Object({}, { additionalProperties: true, description: 'The SOAP Body, e.g. {"GetDeviceInformationResponse": {…}}' }),
          ...errorResponses(409, 502, 504),
        },
      },
    },
    (req) => onvif.call(req.query.camera_exid, req.params.service, req.params.operation, req.query as Record<string, string>),
  );
});
