// The activity timeline (docs/analysis.md, Activity): a project's and a camera's activity per quarter
// hour over a day or a range, and the busiest moments. The AI API holds no data of its own: each
// request is answered by the main API, called with the caller's own JWT, so project membership and
// visibility are decided there exactly as on the main API.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ActivitySpanQuery as Span, BusiestMoments as Busiest, CameraActivity, ProjectActivity } from '../lib/activity/activity-schemas.js';
import { bearerToken } from '../lib/auth/bearer.js';
import { ApiError } from '../lib/errors.js';

const Exid = Type.String({ minLength: 1, maxLength: 64 });
const Failure = Type.Object({ code: Type.String(), message: Type.String() }, { additionalProperties: true });
const failures = { 400: Failure, 401: Failure, 403: Failure, 404: Failure, 503: Failure };

/** The caller's JWT, from the header it came in (the service's hook has already checked it). */
function jwtOf(req: FastifyRequest): string {
  const auth = req.headers.authorization;
  const token = typeof auth === 'string' ? bearerToken(auth) : undefined;
  const xApiKey = req.headers['x-api-key'];
  return token ?? (typeof xApiKey === 'string' ? xApiKey.trim() : '');
}

function query(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

export function registerActivityRoutes(fastify: FastifyInstance, apiUrl: string): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['activity'];

  /** GETs a main-API path as the caller; its answer, or its refusal passed on as is. */
  async function asCaller(req: FastifyRequest, path: string): Promise<{ status: number; body: unknown }> {
    let res: Response;
    try {
      res = await fetch(new URL(path, apiUrl), { headers: { authorization: `Bearer ${jwtOf(req)}` }, signal: AbortSignal.timeout(10_000) });
    } catch {
      throw new ApiError('SERVICE_UNAVAILABLE', 'The main API could not be reached; try again');
    }
    return { status: res.status, body: await res.json().catch(() => ({ code: 'BAD_GATEWAY', message: 'The main API answered without JSON' })) };
  }
  const pass = (reply: FastifyReply, r: { status: number; body: unknown }) => reply.code(r.status).send(r.body);
  const project = (exid: string) => `/v2/projects/${encodeURIComponent(exid)}`;

  app.get(
    '/projects/:exid/activity',
    {
      schema: {
        tags,
        operationId: 'getProjectActivity',
        summary: 'Activity of the project’s cameras per quarter hour, over a local day (`date`) or a range (`from`, `to`)',
        params: Type.Object({ exid: Exid }),
        querystring: Type.Object(Span),
        response: { 200: ProjectActivity, ...failures },
      },
    },
    async (req, reply) => pass(reply, await asCaller(req, `${project(req.params.exid)}/activity${query(req.query)}`)),
  );

  app.get(
    '/projects/:exid/cameras/:camera_exid/activity',
    {
      schema: {
        tags,
        operationId: 'getCameraActivity',
        summary: 'Activity of one camera of the project per quarter hour, over a local day or a range',
        params: Type.Object({ exid: Exid, camera_exid: Exid }),
        querystring: Type.Object(Span),
        response: { 200: CameraActivity, ...failures },
      },
    },
    async (req, reply) => {
      const camera = await asCaller(req, `/v2/cameras/${encodeURIComponent(req.params.camera_exid)}`);
      if (camera.status !== 200) return pass(reply, camera);
      if ((camera.body as { project_exid?: string }).project_exid !== req.params.exid) throw new ApiError('NOT_FOUND', 'Camera not found in this project');
      return pass(reply, await asCaller(req, `/v2/cameras/${encodeURIComponent(req.params.camera_exid)}/activity${query(req.query)}`));
    },
  );

  app.get(
    '/projects/:exid/activity/busiest',
    {
      schema: {
        tags,
        operationId: 'getBusiestMoments',
        summary: 'The busiest quarter hours of the project’s cameras, busiest first; each names the frame to jump to',
        params: Type.Object({ exid: Exid }),
        querystring: Type.Object({
          ...Span,
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
          camera_exid: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
        }),
        response: { 200: Busiest, ...failures },
      },
    },
    async (req, reply) => pass(reply, await asCaller(req, `${project(req.params.exid)}/activity/busiest${query(req.query)}`)),
  );
}
