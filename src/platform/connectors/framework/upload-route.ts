// The upload action every uploading connector has: `POST <prefix>/cameras/:camera_exid/<path>`, editor
// on the camera's project, 201 with the provider's answer. The route checks the connection before any
// image work, and records what was sent; the provider only says how to send it.
import type { Static, TObject } from 'typebox';
import { fromPathCamera, type ProjectRef, scoped } from '../../access/index.js';
import { actingUserId, allowedProject } from '../../http/index.js';
import { CameraParams } from './common-schemas.js';
import type { ConnectorApp, ConnectorContext } from './provider.js';
import { connectorErrors } from './routes.js';

/** What a provider's upload sent, for the Overlook record, and the answer to give once recorded. */
interface UploadSent<Reply> {
  remoteProjectId: string;
  remoteId: string;
  name: string;
  details: Record<string, unknown>;
  reply: (recordId: string) => Reply;
}

interface UploadInput<Body> {
  userId: string;
  project: ProjectRef;
  cameraExid: string;
  body: Body;
}

export interface UploadRouteSpec<B extends TObject, R extends TObject> {
  /** The last path segment: `uploads`, `documents`. */
  path: string;
  /** Appended to the provider's operationPrefix. */
  operation: string;
  summary: string;
  body: B;
  reply: R;
  /** Refuses a body before the connection is checked (combinations the schema cannot express). */
  check?: (body: Static<B>) => void;
  upload: (input: UploadInput<Static<B>>) => Promise<UploadSent<Static<R>>>;
}

export function uploadRoute<B extends TObject, R extends TObject>(app: ConnectorApp, ctx: ConnectorContext, spec: UploadRouteSpec<B, R>): void {
  const { client, prefix, tags, provider, store, host } = ctx;
  app.post(
    `${prefix}/cameras/:camera_exid/${spec.path}`,
    {
      config: { access: scoped(['project:connectors'], { project: fromPathCamera, role: 'editor' }) },
      schema: {
        tags,
        operationId: `${provider.operationPrefix}${spec.operation}`,
        summary: spec.summary,
        params: CameraParams,
        // Widened here: the spec's types already bind the provider's body and reply to its handler.
        body: spec.body as TObject,
        response: { 201: spec.reply as TObject, ...connectorErrors() },
      },
    },
    async (req, reply) => {
      const userId = actingUserId(req);
      const { project } = allowedProject(req);
      const body = req.body as Static<B>;
      const cameraExid = req.params.camera_exid;
      spec.check?.(body);
      // Fails before any image work when the person has not connected the provider.
      await client.connection(userId);
      const sent = await spec.upload({ userId, project, cameraExid, body });
      const camera = await host.cameras.row(cameraExid);
      const id = await store.recordUpload({
        provider: provider.id,
        userId,
        projectId: project.id,
        cameraId: camera.id,
        remoteProjectId: sent.remoteProjectId,
        remoteId: sent.remoteId,
        name: sent.name,
        details: sent.details,
      });
      return reply.code(201).send(sent.reply(id));
    },
  );
}
