import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { peopleOnly } from '../access/index.js';
import { errorResponses, Nullable, Timestamp } from '../../lib/http/schemas.js';
import { actingUserId } from '../http/index.js';
import { DeveloperAppsService } from './developer-apps-service.js';
import { defineRoutes } from '../plugins/feature.js';

const AppId = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const Name = Type.String({ minLength: 1, maxLength: 100, description: 'Shown to people on the consent page' });
const RedirectUris = Type.Array(Type.String({ minLength: 1, maxLength: 2000 }), {
  minItems: 1,
  maxItems: 20,
  description: 'Where the authorization server may send people back (exact match; loopback ports are free)',
});
const ClientUri = Type.String({ minLength: 1, maxLength: 2000, description: 'The app’s home page' });

const CreateBody = Type.Object(
  {
    name: Name,
    redirect_uris: RedirectUris,
    client_uri: Type.Optional(ClientUri),
    confidential: Type.Optional(
      Type.Boolean({ description: 'true: the app gets a client secret (client_secret_basic); false (default): a public client using PKCE only' }),
    ),
  },
  { additionalProperties: false },
);
const EditBody = Type.Object(
  { name: Type.Optional(Name), redirect_uris: Type.Optional(RedirectUris), client_uri: Type.Optional(ClientUri) },
  { additionalProperties: false },
);

const AppRecord = Type.Object({
  id: Type.String(),
  client_id: Type.String(),
  name: Type.String(),
  redirect_uris: Type.Array(Type.String()),
  client_uri: Nullable(Type.String()),
  confidential: Type.Boolean(),
  token_endpoint_auth_method: Type.String(),
  grant_types: Type.Array(Type.String()),
  created_at: Timestamp,
});
const AppWithSecret = Type.Intersect([
  AppRecord,
  Type.Object({ client_secret: Type.Optional(Type.String({ description: 'Confidential apps only; shown this once' })) }),
]);

export const developerAppRoutes = defineRoutes('developer-app-routes', ['db', 'oauth'], async (fastify, { db, oauth }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const apps = new DeveloperAppsService(db, oauth);
  const config = { access: peopleOnly() };
  const tags = ['developer-apps'];

  app.get(
    '/v2/developer/apps',
    {
      config,
      schema: { tags, operationId: 'listDeveloperApps', summary: 'The caller’s OAuth apps', response: { 200: Type.Array(AppRecord), ...errorResponses() } },
    },
    async (req) => apps.list(actingUserId(req)),
  );

  app.post(
    '/v2/developer/apps',
    {
      config,
      schema: {
        tags,
        operationId: 'createDeveloperApp',
        summary: 'Register an OAuth app; a confidential app’s secret is shown this once',
        body: CreateBody,
        response: { 201: AppWithSecret, ...errorResponses() },
      },
    },
    async (req, reply) => reply.code(201).send(await apps.create(actingUserId(req), req.body)),
  );

  app.get(
    '/v2/developer/apps/:id',
    {
      config,
      schema: {
        tags,
        operationId: 'getDeveloperApp',
        summary: 'One of the caller’s OAuth apps',
        params: AppId,
        response: { 200: AppRecord, ...errorResponses() },
      },
    },
    async (req) => apps.get(actingUserId(req), req.params.id),
  );

  app.patch(
    '/v2/developer/apps/:id',
    {
      config,
      schema: {
        tags,
        operationId: 'editDeveloperApp',
        summary: 'Rename an app or change its redirect URIs',
        params: AppId,
        body: EditBody,
        response: { 200: AppRecord, ...errorResponses() },
      },
    },
    async (req) => apps.edit(actingUserId(req), req.params.id, req.body),
  );

  app.delete(
    '/v2/developer/apps/:id',
    {
      config,
      schema: {
        tags,
        operationId: 'deleteDeveloperApp',
        summary: 'Delete an app and every grant and token issued to it',
        params: AppId,
        response: { 204: Type.Null(), ...errorResponses() },
      },
    },
    async (req, reply) => {
      await apps.delete(actingUserId(req), req.params.id);
      return reply.code(204).send(null);
    },
  );
});
