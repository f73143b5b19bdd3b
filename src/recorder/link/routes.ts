// `/api/link`: the recorder's link to a platform (docs/recorder.md, Platform link); recorder admins only.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ApiError } from '../../lib/errors.js';
import { errorResponses, Nullable, StringEnum } from '../../lib/http/schemas.js';
import { linkWithCode, unlink } from './linking.js';

const LinkStatus = Type.Object({
  state: StringEnum(['unlinked', 'connecting', 'connected', 'disconnected', 'revoked'], {
    description: 'revoked: the platform ended the link; the recorder does not reconnect until linked again',
  }),
  connected: Type.Boolean(),
  platform_url: Nullable(Type.String()),
  link_id: Nullable(Type.String()),
  project_exid: Nullable(Type.String()),
  last_error: Nullable(Type.String()),
  backlog: Type.Object({
    items: Type.Integer({ description: 'Cloud frames and events not yet acknowledged by the platform' }),
    bytes: Type.Integer(),
  }),
});

export async function linkRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { link, linkStore, outbox, linkDispatcher } = app.recorder;
  const tags = ['link'];
  // The recorder's documented API is fixed at twenty paths (docs/recorder.md): the link's routes are
  // described in docs/recorder.md, Platform link, and kept out of the document, like WebRTC's.
  const hide = true;

  const status = async () => {
    await link.sync();
    const stored = await linkStore.get();
    const { state, lastError } = link.state();
    return {
      state,
      connected: state === 'connected',
      platform_url: stored?.platformUrl ?? null,
      link_id: stored?.linkId ?? null,
      project_exid: stored?.projectExid ?? null,
      last_error: lastError,
      backlog: await outbox.size(),
    };
  };

  app.get(
    '/api/link',
    {
      config: { auth: 'admin' },
      schema: {
        hide,
        tags,
        operationId: 'getLink',
        summary: 'The link to a platform: its state, the platform, the last error and the backlog',
        response: { 200: LinkStatus, ...errorResponses() },
      },
    },
    status,
  );

  app.post(
    '/api/link',
    {
      config: { auth: 'admin' },
      schema: {
        hide,
        tags,
        operationId: 'createLink',
        summary: 'Link the recorder to a platform with a pairing code from the project’s settings; a revoked link is replaced',
        body: Type.Object(
          {
            platform_url: Type.String({ minLength: 1, maxLength: 2048, description: 'The platform’s public URL, e.g. https://overlook.example.com' }),
            code: Type.String({ minLength: 1, maxLength: 40, description: 'The one-time pairing code' }),
            recorder_name: Type.Optional(
              Type.String({ minLength: 1, maxLength: 200, description: 'How the platform lists this recorder (default its host name)' }),
            ),
          },
          { additionalProperties: false },
        ),
        response: { 200: LinkStatus, ...errorResponses(502) },
      },
    },
    async (req) => {
      await linkWithCode({ store: linkStore, outbox, dispatcher: linkDispatcher }, req.body.platform_url, req.body.code, req.body.recorder_name);
      return status();
    },
  );

  app.delete(
    '/api/link',
    {
      config: { auth: 'admin' },
      schema: {
        hide,
        tags,
        operationId: 'deleteLink',
        summary: 'Unlink: close the connection and forget the credential, the schedules and the backlog',
        response: { 204: Type.Null(), ...errorResponses() },
      },
    },
    async (_req, reply) => {
      if (!(await unlink({ store: linkStore, outbox }))) throw new ApiError('NOT_FOUND', 'The recorder is not linked');
      await link.sync();
      return reply.code(204).send(null);
    },
  );
}
