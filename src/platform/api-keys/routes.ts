import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ApiError } from '../../lib/errors.js';
import { peopleOnly, SCOPE_CATALOGUE } from '../access/index.js';
import { errorResponses } from '../../lib/http/schemas.js';
import { ApiKeyRecord, ApiKeyWithValue } from './api-key-record.js';
import { explainValidation } from './explain-request.js';
import { MAX_ALLOWED_IPS, RATE_LIMIT_BOUNDS } from './key-limits.js';
import { LEAK_REPORT_MAX_KEYS, LEAK_REPORT_MAX_VALUE_LENGTH } from './leak-report.js';
import { auditContext } from '../audit/index.js';
import { defineRoutes } from '../plugins/feature.js';

const KeyId = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const Name = Type.String({ minLength: 1, maxLength: 100 });
const ExpiresAt = Type.String({ format: 'date-time', description: 'ISO 8601, in the future' });
const Projects = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 1000, description: 'Exids of projects you are a member of' });
const Scopes = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 100, description: 'Scope names from GET /v2/api-keys/scopes' });

const RateLimitBody = Type.Union(
  [
    Type.Object(
      {
        requests: Type.Integer({ minimum: RATE_LIMIT_BOUNDS.requests.min, maximum: RATE_LIMIT_BOUNDS.requests.max }),
        window_seconds: Type.Integer({ minimum: RATE_LIMIT_BOUNDS.window_seconds.min, maximum: RATE_LIMIT_BOUNDS.window_seconds.max }),
      },
      { additionalProperties: false },
    ),
    Type.Null(),
  ],
  { description: 'Requests the key may make per window (counted across every node); null for no limit of its own' },
);
const AllowedIps = Type.Union([Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: MAX_ALLOWED_IPS }), Type.Null()], {
  description: 'IPv4/IPv6 addresses or CIDR blocks the key may be used from; empty or null for anywhere',
});

const CreateBody = Type.Object(
  {
    name: Name,
    expires_at: ExpiresAt,
    projects: Projects,
    scopes: Scopes,
    rate_limit: Type.Optional(RateLimitBody),
    allowed_ips: Type.Optional(AllowedIps),
  },
  { additionalProperties: false },
);
const EditBody = Type.Object(
  {
    name: Type.Optional(Name),
    expires_at: Type.Optional(ExpiresAt),
    projects: Type.Optional(Projects),
    scopes: Type.Optional(Scopes),
    rate_limit: Type.Optional(RateLimitBody),
    allowed_ips: Type.Optional(AllowedIps),
  },
  { additionalProperties: false },
);

const ScopeEntry = Type.Object({ scope: Type.String(), group: Type.String(), description: Type.String(), opens_endpoints: Type.Boolean() });

function personOf(req: { principal: { kind: string; userId?: string } }): string {
  const p = req.principal;
  if (p.kind !== 'user' || !p.userId) throw new ApiError('UNAUTHORIZED', 'Sign in first');
  return p.userId;
}

export const apiKeyRoutes = defineRoutes('api-key-routes', ['apiKeys', 'explainer', 'leakReports'], async (fastify, { apiKeys, explainer, leakReports }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const keys = apiKeys;
  const closed = { access: peopleOnly() };
  // What an admin impersonating the owner must not do: create, edit or regenerate keys (403).
  const ownerOnly = { access: peopleOnly({ notImpersonated: true }) };
  const tags = ['api-keys'];

  app.get(
    '/v2/api-keys/scopes',
    {
      config: closed,
      schema: {
        tags,
        operationId: 'listApiKeyScopes',
        summary: 'The scope catalogue the key editor offers',
        response: { 200: Type.Array(ScopeEntry), ...errorResponses() },
      },
    },
    async () => SCOPE_CATALOGUE.map((s) => ({ ...s })),
  );

  app.post(
    '/v2/api-keys',
    {
      config: ownerOnly,
      schema: {
        tags,
        operationId: 'createApiKey',
        summary: 'Create a key; the value is shown this once',
        body: CreateBody,
        response: { 201: ApiKeyWithValue, ...errorResponses() },
      },
    },
    async (req, reply) => reply.code(201).send(await keys.create(personOf(req), req.body, auditContext(req))),
  );

  // Open to anyone without a credential (a scanner, a stranger who found a key) and closed to keys.
  app.post(
    '/v2/api-keys/leaks',
    {
      config: { access: peopleOnly({ anonymous: true }) },
      schema: {
        tags,
        operationId: 'reportLeakedApiKeys',
        summary: 'Report leaked key values: each one that names a live key revokes it. No credential needed; the answer never says which values were keys',
        body: Type.Object(
          {
            keys: Type.Array(Type.String({ minLength: 1, maxLength: LEAK_REPORT_MAX_VALUE_LENGTH }), {
              minItems: 1,
              maxItems: LEAK_REPORT_MAX_KEYS,
              description: 'Key values (olk_…) found where they should not be',
            }),
          },
          { additionalProperties: false },
        ),
        response: { 202: Type.Object({ received: Type.Integer() }), ...errorResponses() },
      },
    },
    async (req, reply) => reply.code(202).send({ received: await leakReports.report(req.body.keys, auditContext(req)) }),
  );

  app.get(
    '/v2/api-keys',
    {
      config: closed,
      schema: { tags, operationId: 'listApiKeys', summary: 'The caller’s keys', response: { 200: Type.Array(ApiKeyRecord), ...errorResponses() } },
    },
    async (req) => keys.list(personOf(req)),
  );

  app.get(
    '/v2/api-keys/:id',
    {
      config: closed,
      schema: { tags, operationId: 'getApiKey', summary: 'One of the caller’s keys', params: KeyId, response: { 200: ApiKeyRecord, ...errorResponses() } },
    },
    async (req) => keys.get(personOf(req), req.params.id),
  );

  app.patch(
    '/v2/api-keys/:id',
    {
      config: ownerOnly,
      schema: {
        tags,
        operationId: 'editApiKey',
        summary: 'Edit a valid key (expired and revoked keys cannot be edited)',
        params: KeyId,
        body: EditBody,
        response: { 200: ApiKeyRecord, ...errorResponses(409) },
      },
    },
    async (req) => keys.edit(personOf(req), req.params.id, req.body, auditContext(req)),
  );

  app.post(
    '/v2/api-keys/:id/regenerate',
    {
      config: ownerOnly,
      schema: {
        tags,
        operationId: 'regenerateApiKey',
        summary: 'New value for a valid key; the old value stops working at once',
        params: KeyId,
        response: { 200: ApiKeyWithValue, ...errorResponses(409) },
      },
    },
    async (req) => keys.regenerate(personOf(req), req.params.id, auditContext(req)),
  );

  app.post(
    '/v2/api-keys/:id/revoke',
    {
      config: closed,
      schema: { tags, operationId: 'revokeApiKey', summary: 'Revoke a key for good', params: KeyId, response: { 200: ApiKeyRecord, ...errorResponses() } },
    },
    async (req) => keys.revoke(personOf(req), req.params.id, auditContext(req)),
  );

  app.post(
    '/v2/api-keys/:id/explain',
    {
      config: closed,
      schema: {
        tags,
        operationId: 'explainApiKey',
        summary: 'Test this key: what the access layer would decide for it on a request, and why, step by step',
        params: KeyId,
        body: Type.Object(
          {
            method: Type.Unsafe<string>({ type: 'string', enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'get', 'post', 'put', 'patch', 'delete'] }),
            path: Type.String({
              minLength: 1,
              maxLength: 2000,
              description: 'The path, with any query string, e.g. /v2/cameras/{camera_exid}/ptz/status filled in',
            }),
            project_exid: Type.Optional(
              Type.String({ minLength: 1, maxLength: 64, description: 'The body’s project, for endpoints that take it from the body' }),
            ),
            ip: Type.Optional(
              Type.String({ minLength: 1, maxLength: 64, description: 'The address the request would come from, checked against the key’s allow-list' }),
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({
            allowed: Type.Boolean(),
            status: Type.Integer(),
            code: Type.Union([Type.String(), Type.Null()]),
            message: Type.String(),
            endpoint: Type.Union([
              Type.Object({ method: Type.String(), path: Type.String(), access: Type.String(), scopes: Type.Array(Type.String()) }),
              Type.Null(),
            ]),
            steps: Type.Array(Type.Object({ step: Type.String(), outcome: Type.String(), detail: Type.String() })),
          }),
          ...errorResponses(),
        },
      },
    },
    async (req) => {
      const userId = personOf(req);
      explainValidation(req.body);
      const key = await keys.get(userId, req.params.id);
      return explainer.explain({ ...key, userId }, req.body);
    },
  );

  app.delete(
    '/v2/api-keys/:id',
    {
      config: closed,
      schema: {
        tags,
        operationId: 'deleteApiKey',
        summary: 'Delete one of the caller’s keys; its value stops working at once',
        params: KeyId,
        response: { 204: Type.Null(), ...errorResponses() },
      },
    },
    async (req, reply) => {
      await keys.remove(personOf(req), req.params.id, auditContext(req));
      return reply.code(204).send(null);
    },
  );
});
