// Remote storages (admins): the S3 or HTTP targets recorded segments and snapshots are uploaded to,
// each with the state of its upload queue.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses, Nullable, StringEnum } from '../../lib/http/schemas.js';

const Config = Type.Object(
  {
    bucket: Type.Optional(Type.String({ maxLength: 200, description: 's3: the bucket' })),
    region: Type.Optional(Type.String({ maxLength: 64, description: 's3: the region (default us-east-1)' })),
    access_key_id: Type.Optional(Type.String({ maxLength: 200, description: 's3: the access key id' })),
    secret_access_key: Type.Optional(Type.String({ maxLength: 200, description: 's3: the secret access key (write-only)' })),
    path_style: Type.Optional(
      Type.Boolean({ description: 's3: path-style addressing (`<url>/<bucket>/<key>`), as most self-hosted S3 servers want; default false' }),
    ),
    method: Type.Optional(StringEnum(['POST', 'PUT'], { description: 'http: POST each object to the URL, or PUT it to `<url>/<key>`; default POST' })),
    headers: Type.Optional(
      Type.Record(Type.String(), Type.String({ maxLength: 1000 }), {
        maxProperties: 20,
        description: 'http: headers sent with every upload (write-only values)',
      }),
    ),
    recordings: Type.Optional(Type.Boolean({ description: 'Upload every recorded segment; default true' })),
    snapshot_interval_seconds: Type.Optional(
      Nullable(Type.Integer({ minimum: 2, maximum: 86_400, description: 'Upload a snapshot of every streaming device this often; null or absent: none' })),
    ),
  },
  { additionalProperties: false },
);
const Uploads = Type.Object({
  pending: Type.Integer({ description: 'Objects queued, not yet uploaded' }),
  last_success_at: Nullable(Type.String()),
  last_error: Nullable(Type.String()),
  last_error_at: Nullable(Type.String()),
});
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
  uploads: Uploads,
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
        summary: 'The remote storages recordings and snapshots are uploaded to, each with its upload queue',
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
