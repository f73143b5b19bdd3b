// Remote storages (admins): the S3 or HTTP targets snapshots and clips may be sent to.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses, StringEnum } from '../../lib/http/schemas.js';

const Config = Type.Object(
  {
    bucket: Type.Optional(Type.String({ maxLength: 200 })),
    region: Type.Optional(Type.String({ maxLength: 64 })),
    access_key_id: Type.Optional(Type.String({ maxLength: 200 })),
    secret_access_key: Type.Optional(Type.String({ maxLength: 200, description: 'Write-only' })),
    headers: Type.Optional(Type.Record(Type.String(), Type.String({ maxLength: 1000 }), { description: 'HTTP headers to send (write-only values)' })),
  },
  { additionalProperties: false },
);
const Fields = {
  name: Type.String({ minLength: 1, maxLength: 100 }),
  type: StringEnum(['s3', 'http']),
  url: Type.String({ minLength: 1, maxLength: 2048 }),
  config: Config,
};
const Record_ = Type.Object({
  id: Type.String(),
  name: Type.String(),
  type: Type.String(),
  url: Type.String(),
  config: Type.Record(Type.String(), Type.Unknown()),
  created_at: Type.String(),
  updated_at: Type.String(),
});
const Id = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export async function remoteStorageRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { remoteStorages } = app.recorder;
  const tags = ['remote storages'];
  const admin = { auth: 'admin' as const };

  app.get(
    '/api/remote_storages',
    {
      config: admin,
      schema: {
        tags,
        operationId: 'listRemoteStorages',
        summary: 'The remote storages footage can be sent to',
        response: { 200: Type.Array(Record_), ...errorResponses() },
      },
    },
    async () => remoteStorages.list(),
  );
  app.post(
    '/api/remote_storages',
    {
      config: admin,
      schema: {
        tags,
        operationId: 'createRemoteStorage',
        summary: 'Add a remote storage',
        body: Type.Object({ ...Fields, config: Type.Optional(Config) }, { additionalProperties: false }),
        response: { 201: Record_, ...errorResponses() },
      },
    },
    async (req, reply) => reply.code(201).send(await remoteStorages.create(req.body)),
  );
  app.get(
    '/api/remote_storages/:id',
    {
      config: admin,
      schema: { tags, operationId: 'getRemoteStorage', summary: 'One remote storage', params: Id, response: { 200: Record_, ...errorResponses() } },
    },
    async (req) => remoteStorages.get(req.params.id),
  );
  app.put(
    '/api/remote_storages/:id',
    {
      config: admin,
      schema: {
        tags,
        operationId: 'updateRemoteStorage',
        summary: 'Change a remote storage',
        params: Id,
        body: Type.Partial(Type.Object(Fields), { additionalProperties: false }),
        response: { 200: Record_, ...errorResponses() },
      },
    },
    async (req) => remoteStorages.update(req.params.id, req.body),
  );
  app.delete(
    '/api/remote_storages/:id',
    {
      config: admin,
      schema: { tags, operationId: 'deleteRemoteStorage', summary: 'Delete a remote storage', params: Id, response: { 204: Type.Null(), ...errorResponses() } },
    },
    async (req, reply) => {
      await remoteStorages.remove(req.params.id);
      return reply.code(204).send(null);
    },
  );
}
