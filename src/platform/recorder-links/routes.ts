// Site links (docs/site-link.md): a project's admins make, list and revoke links (people only, closed to
// API keys); a recorder pairs with a code (public, throttled) and keeps one WebSocket open to the
// platform with the credential it got (`tokenOnly('link')`); a camera's recorder events are read like
// its other recordings; and nodes relay a linked camera's live view to each other (`tokenOnly('node')`).
import websocket from '@fastify/websocket';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ApiError } from '../../lib/errors.js';
import { PageMeta, PageQuery } from '../../lib/http/pagination.js';
import { errorResponses, Nullable, StringEnum, Timestamp } from '../../lib/http/schemas.js';
import { CONNECT_PATH, MAX_PAYLOAD_BYTES, PAIR_PATH, PairAnswer, PairBody, SUBPROTOCOL } from '../../lib/site-link/protocol.js';
import { fromPathCamera, fromPathProject, peopleOnly, publicRoute, tokenOnly } from '../access/index.js';
import { actingUserId, allowedProject } from '../http/index.js';
import { defineRoutes } from '../plugins/feature.js';

const ProjectParams = Type.Object({ exid: Type.String({ minLength: 1, maxLength: 64 }) });
const LinkParams = Type.Object({ exid: Type.String({ minLength: 1, maxLength: 64 }), id: Type.String({ minLength: 1, maxLength: 64 }) });
const CameraParams = Type.Object({ camera_exid: Type.String({ minLength: 1, maxLength: 64 }) });

const NewLink = Type.Object({
  id: Type.String(),
  pairing_code: Type.String({ description: 'Single use; typed on the recorder: `overlook recorder link --platform URL --code CODE`' }),
  expires_at: Timestamp,
});
const Link = Type.Object({
  id: Type.String(),
  name: Type.String(),
  status: StringEnum(['pending', 'connected', 'disconnected', 'revoked']),
  last_seen_at: Nullable(Type.String()),
  created_at: Type.String(),
  paired_at: Nullable(Type.String()),
  revoked_at: Nullable(Type.String()),
  recorder_name: Nullable(Type.String()),
  recorder_version: Nullable(Type.String()),
  code_expires_at: Nullable(Type.String({ description: 'Pending links: until when the pairing code works' })),
  cameras: Type.Array(Type.Object({ exid: Type.String(), name: Type.String(), status: Type.String(), device_id: Type.String() }), {
    description: 'The cameras the recorder’s devices became',
  }),
});
const RecorderEvent = Type.Object({
  id: Type.String(),
  camera_exid: Type.String(),
  kind: Type.String(),
  at: Type.String(),
  data: Type.Record(Type.String(), Type.Unknown()),
  anpr_event_id: Nullable(Type.String({ description: 'Plate reads: the ANPR event it became' })),
  created_at: Type.String(),
});
const Binary = Type.Unsafe<Buffer>({ type: 'string', format: 'binary' });

export const recorderLinkRoutes = defineRoutes(
  'recorder-link-routes',
  ['recorderLinks', 'linkHub', 'recorderEvents', 'linkedLive', 'cameras'],
  async (fastify, { recorderLinks, linkHub, recorderEvents, linkedLive, cameras }) => {
    // The link's WebSocket; a recorder's messages are bounded by the protocol, whatever the body limit.
    await fastify.register(websocket, {
      options: {
        maxPayload: MAX_PAYLOAD_BYTES + 64 * 1024,
        handleProtocols: (protocols) => (protocols.has(SUBPROTOCOL) ? SUBPROTOCOL : false),
      },
    });
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const tags = ['site links'];
    const admins = peopleOnly({ project: fromPathProject, role: 'admin' });

    app.post(
      '/v2/projects/:exid/recorder-links',
      {
        config: { access: admins },
        schema: {
          tags,
          operationId: 'createRecorderLink',
          summary: 'Link a site recorder: a single-use pairing code, valid for an hour',
          params: ProjectParams,
          body: Type.Optional(Type.Object({ name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) }, { additionalProperties: false })),
          response: { 201: NewLink, ...errorResponses() },
        },
      },
      async (req, reply) => reply.code(201).send(await recorderLinks.create(allowedProject(req).project, actingUserId(req), req.body ?? {})),
    );

    app.get(
      '/v2/projects/:exid/recorder-links',
      {
        config: { access: admins },
        schema: {
          tags,
          operationId: 'listRecorderLinks',
          summary: 'The project’s site links, newest first, with their state and cameras',
          params: ProjectParams,
          response: { 200: Type.Object({ data: Type.Array(Link) }), ...errorResponses() },
        },
      },
      async (req) => ({ data: await recorderLinks.list(allowedProject(req).project) }),
    );

    app.delete(
      '/v2/projects/:exid/recorder-links/:id',
      {
        config: { access: admins },
        schema: {
          tags,
          operationId: 'revokeRecorderLink',
          summary: 'Revoke a site link: its connection ends at once; its cameras and recordings stay',
          params: LinkParams,
          response: { 204: Type.Null(), ...errorResponses() },
        },
      },
      async (req, reply) => {
        await recorderLinks.revoke(allowedProject(req).project, req.params.id);
        return reply.code(204).send(null);
      },
    );

    app.post(
      PAIR_PATH,
      {
        config: { access: publicRoute() },
        schema: {
          tags,
          operationId: 'pairRecorderLink',
          summary: 'A recorder exchanges its pairing code for the link’s credential (throttled per address)',
          body: PairBody,
          response: { 200: PairAnswer, ...errorResponses() },
        },
      },
      async (req) => recorderLinks.pair(req.ip, req.body),
    );

    app.get(
      CONNECT_PATH,
      {
        websocket: true,
        config: { access: tokenOnly('link') },
        schema: {
          tags,
          operationId: 'connectRecorderLink',
          summary: `The recorder’s WebSocket (subprotocol ${SUBPROTOCOL}), with its credential in Authorization: Bearer orl_…`,
          response: { 101: { description: 'Switching protocols: the link is open' }, ...errorResponses() },
        },
      },
      async (socket, req) => {
        if (socket.protocol !== SUBPROTOCOL) {
          socket.close(1002, `subprotocol ${SUBPROTOCOL} required`);
          return;
        }
        const linkId = req.tokenGrant?.subject;
        const row = linkId ? await recorderLinks.linkById(linkId) : null;
        if (!row) {
          socket.close(4403, 'unknown site link');
          return;
        }
        await linkHub.accept(socket, row).catch((err) => {
          req.log.warn({ err, link: row.id }, 'site link: connection not taken');
          socket.close(1011, 'the platform could not take the connection');
        });
      },
    );

    app.get(
      '/v2/cameras/:camera_exid/recorder-events',
      {
        // People only: the scope table fixes what camera:recordings opens to keys (docs/access-model.md).
        config: { access: peopleOnly({ project: fromPathCamera, role: 'viewer' }) },
        schema: {
          tags,
          operationId: 'listRecorderEvents',
          summary: 'Events a linked camera’s site recorder sent (motion, plate reads…), newest first',
          params: CameraParams,
          querystring: Type.Object(
            {
              kind: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
              from: Type.Optional(Type.String({ maxLength: 40 })),
              to: Type.Optional(Type.String({ maxLength: 40 })),
              ...PageQuery,
            },
            { additionalProperties: false },
          ),
          response: { 200: Type.Object({ meta: PageMeta, data: Type.Array(RecorderEvent) }), ...errorResponses() },
        },
      },
      async (req) => recorderEvents.list(req.params.camera_exid, { ...req.query, page: req.query.page ?? 1, pageSize: req.query.page_size ?? 50 }),
    );

    app.get(
      '/v2/recorder-links/relay/:camera_exid/:what',
      {
        config: { access: tokenOnly('node') },
        schema: {
          hide: true,
          tags,
          operationId: 'relayLinkedLive',
          summary: 'Another node asks this one, holding the camera’s link, for its snapshot, live playlist or segment',
          params: Type.Object({ camera_exid: Type.String({ minLength: 1, maxLength: 64 }), what: StringEnum(['snapshot', 'live_playlist', 'live_segment']) }),
          querystring: Type.Object({ name: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_.-]{1,100}$' })) }, { additionalProperties: false }),
          response: { 200: { description: 'The item', content: { 'application/octet-stream': { schema: Binary } } }, ...errorResponses(502, 503, 504) },
        },
      },
      async (req, reply) => {
        const row = await cameras.row(req.params.camera_exid);
        if (row.kind !== 'linked') throw new ApiError('NOT_FOUND', 'Not a linked camera');
        const got = await linkedLive.local(row, req.params.what, req.query.name);
        if (got.takenAt) reply.header('x-snapshot-date', got.takenAt);
        return reply
          .type(got.contentType ?? 'application/octet-stream')
          .header('cache-control', 'no-store')
          .send(got.body);
      },
    );
  },
);
