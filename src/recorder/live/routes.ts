// WebRTC live view (WHEP): `POST /api/devices/{id}/webrtc` with the viewer's SDP offer answers 201
// with the recorder's SDP answer and, in `Location`, the session to `DELETE` when done. The access
// token goes in `Authorization: Bearer` (never `?token=`: WHEP clients send headers).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ApiError } from '../../lib/errors.js';
import { errorResponses } from '../../lib/http/schemas.js';
import { DeviceId } from '../devices/index.js';

const SDP = 'application/sdp';
/** An SDP offer is a few kilobytes; this bounds what is parsed. */
const MAX_OFFER_BYTES = 64 * 1024;

export async function liveRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { devices, whep } = app.recorder;
  const tags = ['live'];
  // WHEP is a standard protocol (RFC 9725) that players speak without our OpenAPI document, and the
  // recorder's documented API is fixed at twenty paths (docs/recorder.md): both routes are described in
  // docs/recorder.md, Live view, and kept out of the document.
  const hide = true;
  app.addContentTypeParser(SDP, { parseAs: 'string', bodyLimit: MAX_OFFER_BYTES }, (_req, body, done) => done(null, body));

  app.post(
    '/api/devices/:id/webrtc',
    {
      config: { auth: 'read' },
      schema: {
        hide,
        tags,
        operationId: 'webrtcOffer',
        summary: 'WebRTC live view (WHEP): send an SDP offer (application/sdp, receive-only H.264 video); 201 with the SDP answer and the session in Location',
        params: DeviceId,
        consumes: [SDP],
        body: Type.String({ maxLength: MAX_OFFER_BYTES, description: 'The SDP offer' }),
        response: { 201: Type.String({ description: 'application/sdp: the SDP answer, every ICE candidate included' }), ...errorResponses() },
      },
    },
    async (req, reply) => {
      if (req.headers['content-type']?.split(';')[0]?.trim().toLowerCase() !== SDP)
        throw new ApiError('UNSUPPORTED_MEDIA_TYPE', `The offer must be sent as ${SDP}`);
      await devices.get(req.params.id);
      const { id, answer } = await whep.create(req.params.id, req.body, req.recorderUser?.userId ?? '');
      return reply
        .code(201)
        .type(SDP)
        .header('location', `/api/devices/${encodeURIComponent(req.params.id)}/webrtc?session=${id}`)
        .header('cache-control', 'no-store')
        .send(answer);
    },
  );

  app.delete(
    '/api/devices/:id/webrtc',
    {
      config: { auth: 'read' },
      schema: {
        hide,
        tags,
        operationId: 'webrtcEnd',
        summary: 'End a WebRTC live-view session (the Location its offer was answered with)',
        params: DeviceId,
        querystring: Type.Object({ session: Type.String({ pattern: '^[0-9a-f]{32}$' }) }),
        response: { 204: Type.Null(), ...errorResponses() },
      },
    },
    async (req, reply) => {
      if (!(await whep.delete(req.params.id, req.query.session))) throw new ApiError('NOT_FOUND', 'No such WebRTC session for this device');
      return reply.code(204).send(null);
    },
  );
}
