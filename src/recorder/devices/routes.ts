// Devices (read: any user; changes: admins) and their webhook tokens for event ingestion (admins).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses, StringEnum } from '../../lib/http/schemas.js';
import { Device, DeviceId, StorageConfig, StreamConfig } from './device-record.js';
import { PlateReaderInput } from '../plate-settings/index.js';

const Credentials = Type.Object(
  { username: Type.Optional(Type.String({ maxLength: 200 })), password: Type.Optional(Type.String({ maxLength: 200 })) },
  { additionalProperties: false },
);
const Fields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  timezone: Type.String({ minLength: 1, maxLength: 64 }),
  stream_config: StreamConfig,
  credentials: Credentials,
  storage_config: StorageConfig,
  share_with_platform: Type.Boolean({ description: 'Share the device with the linked platform (default true)' }),
  plate_reader: PlateReaderInput,
};
const WebhookToken = Type.Object({
  id: Type.String(),
  device_id: Type.String(),
  name: Type.String(),
  hint: Type.String(),
  created_at: Type.String(),
  revoked_at: Type.Union([Type.String(), Type.Null()]),
});

export async function deviceRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { devices, manager, webhooks, plates } = app.recorder;
  const tags = ['devices'];

  app.get(
    '/api/devices',
    {
      config: { auth: 'read' },
      schema: { tags, operationId: 'listDevices', summary: 'The recorder’s devices', response: { 200: Type.Array(Device), ...errorResponses() } },
    },
    async () => devices.list(),
  );

  app.post(
    '/api/devices',
    {
      config: { auth: 'admin' },
      schema: {
        tags,
        operationId: 'createDevice',
        summary: 'Add an ip camera or a file source; recording starts at once when its settings say so',
        body: Type.Object(
          {
            name: Fields.name,
            type: StringEnum(['ip', 'file']),
            timezone: Type.Optional(Fields.timezone),
            stream_config: Fields.stream_config,
            credentials: Type.Optional(Fields.credentials),
            storage_config: Type.Optional(Fields.storage_config),
            share_with_platform: Type.Optional(Fields.share_with_platform),
            plate_reader: Type.Optional(Fields.plate_reader),
          },
          { additionalProperties: false },
        ),
        response: { 201: Device, ...errorResponses() },
      },
    },
    async (req, reply) => {
      const device = await devices.create(req.body);
      await manager.refresh(device.id);
      await plates.refresh(device.id);
      return reply.code(201).send(await devices.get(device.id));
    },
  );

  app.get(
    '/api/devices/:id',
    {
      config: { auth: 'read' },
      schema: { tags, operationId: 'getDevice', summary: 'One device', params: DeviceId, response: { 200: Device, ...errorResponses() } },
    },
    async (req) => devices.get(req.params.id),
  );

  app.put(
    '/api/devices/:id',
    {
      config: { auth: 'admin' },
      schema: {
        tags,
        operationId: 'updateDevice',
        summary: 'Change a device; its recording restarts with the new settings',
        params: DeviceId,
        body: Type.Partial(Type.Object(Fields), { additionalProperties: false }),
        response: { 200: Device, ...errorResponses() },
      },
    },
    async (req) => {
      await devices.update(req.params.id, req.body);
      // Sharing with the platform or not changes nothing in the recording: no restart, no gap.
      if (Object.keys(req.body).some((k) => k !== 'share_with_platform')) await manager.refresh(req.params.id);
      await plates.refresh(req.params.id);
      return devices.get(req.params.id);
    },
  );

  app.delete(
    '/api/devices/:id',
    {
      config: { auth: 'admin' },
      schema: {
        tags,
        operationId: 'deleteDevice',
        summary: 'Stop and remove a device; its recordings stay indexed and on disk',
        params: DeviceId,
        response: { 204: Type.Null(), ...errorResponses() },
      },
    },
    async (req, reply) => {
      await devices.get(req.params.id);
      await manager.stop(req.params.id);
      await plates.stop(req.params.id);
      await devices.remove(req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/devices/:id/webhook-tokens',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['events'],
        operationId: 'listWebhookTokens',
        summary: 'A device’s webhook tokens (without their values)',
        params: DeviceId,
        response: { 200: Type.Array(WebhookToken), ...errorResponses() },
      },
    },
    async (req) => {
      await devices.get(req.params.id);
      return webhooks.list(req.params.id);
    },
  );

  app.post(
    '/api/devices/:id/webhook-tokens',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['events'],
        operationId: 'createWebhookToken',
        summary: 'A token a camera or integration uses to post events for this device; the value is shown once',
        params: DeviceId,
        body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }),
        response: { 201: Type.Object({ ...WebhookToken.properties, token: Type.String() }), ...errorResponses() },
      },
    },
    async (req, reply) => {
      await devices.get(req.params.id);
      return reply.code(201).send(await webhooks.create(req.params.id, req.body.name.trim()));
    },
  );

  app.delete(
    '/api/devices/:id/webhook-tokens',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['events'],
        operationId: 'revokeWebhookToken',
        summary: 'Revoke one webhook token (named by `token_id`); events sent with it are refused from then on',
        params: DeviceId,
        querystring: Type.Object({ token_id: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: { 200: WebhookToken, ...errorResponses() },
      },
    },
    async (req) => webhooks.revoke(req.params.id, req.query.token_id),
  );
}
