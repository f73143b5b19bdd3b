// A site doorbell / intercom provider (Ring- or Nuki-like cloud API), connected with an API key and
// secret (HTTP Basic). Actions: list the account's doorbells (browse), link one to a project and
// optionally a camera (admin; returns the signed-webhook URL and secret), and the ring events received
// (viewer). A ring arrives on a public webhook verified by HMAC signature: the linked camera's frame at
// that moment is captured into its cloud recordings, and the project's admins get a `doorbell_ring`
// notification that points to it.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ApiError } from '../../../lib/errors.js';
import { Nullable } from '../../../lib/http/schemas.js';
import { fromPathProject, scoped } from '../../access/index.js';
import { actingUserId, allowedProject } from '../../http/index.js';
import { connectorErrors } from '../framework/routes.js';
import type { ConnectorContext, ConnectorProvider } from '../framework/provider.js';
import { SiteLinks } from '../voyage-control/site-links.js';
import { registerSiteWebhook } from '../voyage-control/site-webhook.js';
import { EventsPage, EventsQuery, listSiteEvents, ProjectParams, WebhookSetup, webhookUrl } from '../voyage-control/site-routes-common.js';
import { Device, parseDoorbellEvent, toDevice } from './doorbell-records.js';

const NAME = 'Doorbell';
const obj = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const DeviceId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });

async function routes(fastify: FastifyInstance, ctx: ConnectorContext): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { prefix, client, tags } = ctx;
  const links = SiteLinks.from(ctx.host);
  const op = ctx.provider.operationPrefix;

  app.get(
    `${prefix}/devices`,
    {
      config: { access: scoped(['project:connectors']) },
      schema: {
        tags,
        operationId: `${op}ListDevices`,
        summary: 'The doorbells of your connected account',
        response: { 200: Type.Object({ data: Type.Array(Device) }), ...connectorErrors() },
      },
    },
    async (req) => {
      const body = obj(await client.request(actingUserId(req), { path: '/v1/devices' }));
      if (!Array.isArray(body.devices)) throw new ApiError('BAD_GATEWAY', `${NAME} answered no device list`);
      return { data: body.devices.map(toDevice) };
    },
  );

  app.put(
    `${prefix}/projects/:exid/devices/:device_id`,
    {
      config: { access: scoped(['project:connectors'], { project: fromPathProject, role: 'admin' }) },
      schema: {
        tags,
        operationId: `${op}LinkDevice`,
        summary: 'Link one of your doorbells to the project (and a camera whose frame is captured at each ring)',
        params: Type.Object({ exid: ProjectParams.properties.exid, device_id: DeviceId }),
        body: Type.Object({ camera_exid: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 64 }))) }, { additionalProperties: false }),
        response: { 200: Type.Object({ device: Device, ...WebhookSetup }), ...connectorErrors() },
      },
    },
    async (req) => {
      const { project } = allowedProject(req);
      const userId = actingUserId(req);
      const camera = req.body.camera_exid ? await links.cameraOfProject(project.id, req.body.camera_exid) : null;
      // The device must be one of this person's (the provider's 404 → 404).
      const device = toDevice(await client.request(userId, { path: `/v1/devices/${encodeURIComponent(req.params.device_id)}` }));
      const { link, secret } = await links.link({
        provider: ctx.provider.id,
        projectId: project.id,
        cameraId: camera?.id ?? null,
        userId,
        remoteId: req.params.device_id,
        remoteName: device.name,
        onePerProject: false,
      });
      return {
        device,
        webhook_url: webhookUrl(ctx.host.publicUrl, prefix, link.id),
        webhook_secret: secret,
        linked_at: link.createdAt,
        camera_exid: camera?.exid ?? null,
      };
    },
  );

  app.get(
    `${prefix}/projects/:exid/events`,
    {
      config: { access: scoped(['project:connectors'], { project: fromPathProject, role: 'viewer' }) },
      schema: {
        tags,
        operationId: `${op}ListEvents`,
        summary: 'Rings and other events of the project’s doorbells, newest first',
        params: ProjectParams,
        querystring: EventsQuery,
        response: { 200: EventsPage, ...connectorErrors() },
      },
    },
    async (req) => listSiteEvents(ctx, allowedProject(req).project.id, req.query),
  );

  await registerSiteWebhook(fastify, {
    ctx,
    links,
    prefix,
    tags,
    operationId: `${op}EventWebhook`,
    summary: 'Where the doorbell provider posts rings (signed: X-Doorbell-Timestamp, X-Doorbell-Signature = sha256 HMAC of "<timestamp>.<body>")',
    headers: { timestamp: 'x-doorbell-timestamp', signature: 'x-doorbell-signature' },
    interpret: async (link, body) => {
      const e = parseDoorbellEvent(body, link.remoteId);
      const project = await links.project(link.projectId);
      const cameraExid = await links.cameraExid(link.cameraId);
      const snapshot =
        cameraExid && e.type === 'ring' ? await captureFrame(ctx, cameraExid, link.userId, `${NAME} ring: ${link.remoteName ?? link.remoteId}`) : null;
      const device = link.remoteName ?? link.remoteId;
      return {
        eventId: e.id,
        payload: { ...e, device_name: link.remoteName, project_exid: project.exid, camera_exid: cameraExid, snapshot },
        notification: {
          type: e.type === 'ring' ? 'doorbell_ring' : 'doorbell_event',
          message: e.type === 'ring' ? `Someone rang ${device} at ${project.name}` : `${device} at ${project.name}: ${e.type}`,
          context: {
            provider: ctx.provider.id,
            project_exid: project.exid,
            camera_exid: cameraExid,
            device_id: e.device_id,
            device_name: link.remoteName,
            event_id: e.id,
            event_type: e.type,
            occurred_at: e.occurred_at,
            snapshot,
          },
        },
      };
    },
  });
}

/**
 * The camera's frame at the ring, stored in its cloud recordings (so retention and camera deletion
 * look after it): `{ created_at, url }`, or null when the camera could not give one — the ring is
 * still worth telling people about.
 */
async function captureFrame(ctx: ConnectorContext, cameraExid: string, userId: string, note: string): Promise<{ created_at: string; url: string } | null> {
  try {
    const shot = await ctx.host.manualCapture.capture(cameraExid, userId, note);
    return { created_at: shot.created_at, url: shot.url };
  } catch {
    return null;
  }
}

export const doorbellProvider: ConnectorProvider = {
  id: 'doorbell',
  name: NAME,
  operationPrefix: 'doorbell',
  authKind: 'credentials',
  defaultUrls: { api: 'https://api.doorbell.example' },
  credentialsSchema: Type.Object(
    {
      api_key: Type.String({ minLength: 4, maxLength: 128, pattern: '^[A-Za-z0-9_-]+$', description: 'The account’s API key' }),
      api_secret: Type.String({ minLength: 8, maxLength: 256, pattern: '^[\\x21-\\x7e]+$', description: 'The account’s API secret' }),
    },
    { additionalProperties: false },
  ),
  credentialAuth: (c) => ({ headers: { authorization: `Basic ${Buffer.from(`${c.api_key ?? ''}:${c.api_secret ?? ''}`).toString('base64')}` } }),
  async describeAccount(client, userId) {
    const me = obj(await client.request(userId, { path: '/v1/account' }));
    return {
      account_id: typeof me.id === 'string' ? me.id : null,
      name: typeof me.name === 'string' ? me.name : null,
      email: typeof me.email === 'string' ? me.email : null,
    };
  },
  routes,
};
