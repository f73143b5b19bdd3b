// E-mail's routes (docs/email.md): whether e-mail is on, password reset by e-mail, the signed-in
// person's choices of what arrives by e-mail, and the unsubscribe link's action.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { peopleOnly, publicRoute } from '../access/index.js';
import { auditContext } from '../audit/index.js';
import { validation } from '../../lib/errors.js';
import { errorResponses } from '../../lib/http/schemas.js';
import { actingUserId } from '../http/index.js';
import { findUserById } from '../users/index.js';
import { defineRoutes } from '../plugins/feature.js';
import { KIND_LABELS, MAIL_KINDS } from './mail-kinds.js';

const Preferences = Type.Object(
  Object.fromEntries(MAIL_KINDS.map((k) => [k, Type.Boolean({ description: `An e-mail when ${KIND_LABELS[k]}` })])) as Record<
    (typeof MAIL_KINDS)[number],
    ReturnType<typeof Type.Boolean>
  >,
  { additionalProperties: false },
);
const PreferencesAnswer = Type.Object({
  email_enabled: Type.Boolean({ description: 'Whether the platform sends e-mail at all (false: none of these arrive)' }),
  email: Type.String(),
  preferences: Preferences,
});

export const mailRoutes = defineRoutes('mail-routes', ['mail', 'db'], async (fastify, { mail, db }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['mail'];
  // Asking for a reset and setting the password are a person's, never a program's: closed to API keys.
  const anyone = { access: peopleOnly({ anonymous: true }) };

  app.get(
    '/v2/mail/status',
    {
      config: { access: publicRoute() },
      schema: {
        tags,
        operationId: 'getMailStatus',
        summary: 'Whether the platform sends e-mail (the sign-in and invitation screens tell people when it does not)',
        response: { 200: Type.Object({ enabled: Type.Boolean() }) },
      },
    },
    async () => ({ enabled: mail.transport.enabled }),
  );

  app.post(
    '/v2/auth/password-reset',
    {
      config: anyone,
      schema: {
        tags: ['auth'],
        operationId: 'requestPasswordReset',
        summary: 'E-mail a password-reset link to the address, if it has an account; the answer is the same either way',
        body: Type.Object({ email: Type.String({ minLength: 1, maxLength: 254 }) }, { additionalProperties: false }),
        response: { 202: Type.Object({}), ...errorResponses() },
      },
    },
    async (req, reply) => {
      await mail.resetThrottle.check(req.ip);
      await mail.resets.request(req.body.email);
      return reply.code(202).send({});
    },
  );

  app.post(
    '/v2/auth/password-reset/confirm',
    {
      config: anyone,
      schema: {
        tags: ['auth'],
        operationId: 'confirmPasswordReset',
        summary: 'Set a new password with the token of a reset e-mail; every earlier session ends',
        body: Type.Object(
          { token: Type.String({ minLength: 1, maxLength: 256 }), password: Type.String({ minLength: 1, maxLength: 256 }) },
          { additionalProperties: false },
        ),
        response: { 204: Type.Null(), ...errorResponses() },
      },
    },
    async (req, reply) => {
      await mail.resets.confirm(auditContext(req), req.body.token, req.body.password);
      return reply.code(204).send(null);
    },
  );

  const myEmail = async (userId: string) => (await findUserById(db, userId))?.email ?? '';

  app.get(
    '/v2/users/me/email-preferences',
    {
      config: { access: peopleOnly() },
      schema: {
        tags,
        operationId: 'getEmailPreferences',
        summary: 'What you receive by e-mail',
        response: { 200: PreferencesAnswer, ...errorResponses() },
      },
    },
    async (req) => {
      const email = await myEmail(actingUserId(req));
      return { email_enabled: mail.transport.enabled, email, preferences: await mail.preferences.of(email) };
    },
  );

  app.put(
    '/v2/users/me/email-preferences',
    {
      config: { access: peopleOnly() },
      schema: {
        tags,
        operationId: 'updateEmailPreferences',
        summary: 'Choose what you receive by e-mail (kinds left out keep their setting)',
        body: Type.Partial(Preferences, { additionalProperties: false }),
        response: { 200: PreferencesAnswer, ...errorResponses() },
      },
    },
    async (req) => {
      const email = await myEmail(actingUserId(req));
      return { email_enabled: mail.transport.enabled, email, preferences: await mail.preferences.change(email, req.body) };
    },
  );

  app.post(
    '/v2/mail/unsubscribe',
    {
      // The signed token of an e-mail's unsubscribe link is the credential: no sign-in needed.
      config: { access: publicRoute() },
      schema: {
        tags,
        operationId: 'unsubscribe',
        summary: 'Turn off one kind of e-mail for the address, with the token of a message’s unsubscribe link',
        body: Type.Object({ token: Type.String({ minLength: 1, maxLength: 2048 }) }, { additionalProperties: false }),
        response: { 200: Type.Object({ email: Type.String(), kind: Type.String(), description: Type.String() }), ...errorResponses() },
      },
    },
    async (req) => {
      const read = mail.links.readUnsubscribe(req.body.token);
      if (!read) throw validation('token', 'not an unsubscribe link of this platform');
      await mail.preferences.change(read.email, { [read.kind]: false });
      return { email: read.email, kind: read.kind, description: `No more e-mail when ${KIND_LABELS[read.kind]}.` };
    },
  );
});
