// Recorder login, logout (DELETE /api/users/login) and user management (admins only; role user is read-only).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ApiError } from '../../lib/errors.js';
import { errorResponses, StringEnum } from '../../lib/http/schemas.js';

const User = Type.Object({
  id: Type.String(),
  email: Type.String(),
  role: StringEnum(['admin', 'user']),
  created_at: Type.String(),
  updated_at: Type.String(),
});
const Id = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const Password = Type.String({ minLength: 1, maxLength: 256 });
const Email = Type.String({ minLength: 3, maxLength: 254 });

export async function userRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { users, tokens, loginThrottle } = app.recorder;
  const tags = ['users'];

  app.post(
    '/api/users/login',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        operationId: 'login',
        summary: 'Exchange a username (e-mail) and password for an access token',
        body: Type.Object({ username: Email, password: Password }, { additionalProperties: false }),
        response: { 200: Type.Object({ access_token: Type.String(), expires_at: Type.String() }), ...errorResponses() },
      },
    },
    async (req) => {
      // Throttled like the platform's sign-in (docs/recorder.md, Hardening): checked before the password is.
      const account = req.body.username.trim().toLowerCase();
      await loginThrottle.check(account, req.ip);
      const user = await users.authenticate(req.body.username, req.body.password);
      if (!user) {
        await loginThrottle.failed(account, req.ip);
        throw new ApiError('INVALID_CREDENTIALS', 'Wrong username or password', { headers: { 'www-authenticate': 'Bearer realm="overlook-recorder"' } });
      }
      await loginThrottle.succeeded(account, req.ip);
      const { token, expiresAt } = await tokens.issue(user.id);
      return { access_token: token, expires_at: expiresAt };
    },
  );

  // Logging out deletes the login: the access token of this request stops working at once.
  app.delete(
    '/api/users/login',
    {
      config: { auth: 'read' },
      schema: { tags, operationId: 'logout', summary: 'Log out: revoke the access token of this request', response: { 204: Type.Null(), ...errorResponses() } },
    },
    async (req, reply) => {
      await tokens.revoke(req.recorderUser!.tokenId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/users',
    {
      config: { auth: 'admin' },
      schema: { tags, operationId: 'listUsers', summary: 'The recorder’s users', response: { 200: Type.Array(User), ...errorResponses() } },
    },
    async () => users.list(),
  );

  app.post(
    '/api/users',
    {
      config: { auth: 'admin' },
      schema: {
        tags,
        operationId: 'createUser',
        summary: 'Add a recorder user',
        body: Type.Object({ email: Email, password: Password, role: Type.Optional(StringEnum(['admin', 'user'])) }, { additionalProperties: false }),
        response: { 201: User, ...errorResponses() },
      },
    },
    async (req, reply) => reply.code(201).send(await users.create(req.body)),
  );

  app.get(
    '/api/users/:id',
    {
      config: { auth: 'admin' },
      schema: { tags, operationId: 'getUser', summary: 'One recorder user', params: Id, response: { 200: User, ...errorResponses() } },
    },
    async (req) => users.get(req.params.id),
  );

  app.put(
    '/api/users/:id',
    {
      config: { auth: 'admin' },
      schema: {
        tags,
        operationId: 'updateUser',
        summary: 'Change a recorder user (a new password or role ends their tokens)',
        params: Id,
        body: Type.Object(
          { email: Type.Optional(Email), password: Type.Optional(Password), role: Type.Optional(StringEnum(['admin', 'user'])) },
          { additionalProperties: false },
        ),
        response: { 200: User, ...errorResponses() },
      },
    },
    async (req) => users.update(req.recorderUser!.userId, req.params.id, req.body),
  );

  app.delete(
    '/api/users/:id',
    {
      config: { auth: 'admin' },
      schema: {
        tags,
        operationId: 'deleteUser',
        summary: 'Delete a recorder user and end their tokens',
        params: Id,
        response: { 204: Type.Null(), ...errorResponses() },
      },
    },
    async (req, reply) => {
      await users.remove(req.recorderUser!.userId, req.params.id);
      return reply.code(204).send(null);
    },
  );
}
