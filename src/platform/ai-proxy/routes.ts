// The web app's way to the AI API (docs/decisions.md, The web app reaches the AI API through the main
// API): `GET /ai/projects/…` is passed on to the AI API at OVERLOOK_AI_URL with the person's own
// token, so the browser talks to one origin. The AI API decides everything itself (docs/plates.md); its
// answers, refusals included, come back as they are. Its paths are in its own OpenAPI document.
import { ApiError } from '../../lib/errors.js';
import { peopleOnly } from '../access/index.js';
import { defineRoutes } from '../plugins/feature.js';

/** The AI API's paths the web app uses; nothing else is passed on. */
const PASSED = /^\/projects\/[^/?#]+\/(gate-report|activity)(\/|\?|$)/;
/** Answer headers passed back (JSON or the CSV download); nothing else of the AI API's. */
const ANSWER_HEADERS = ['content-type', 'content-disposition'];
const TIMEOUT_MS = 30_000;

export const aiProxyRoutes = defineRoutes('ai-proxy-routes', ['config'], async (app, { config }) => {
  app.get(
    '/ai/*',
    {
      // The person's token goes on to the AI API, which refuses API keys too.
      config: { access: peopleOnly() },
      schema: { hide: true },
    },
    async (req, reply) => {
      const base = config.aiUrl;
      if (!base) throw new ApiError('NOT_FOUND', 'This server passes nothing on to the AI API (OVERLOOK_AI_URL is not set)');
      const path = req.url.slice('/ai'.length);
      if (!PASSED.test(path)) throw new ApiError('NOT_FOUND', 'No such AI API path here');
      const target = new URL(base + path);
      let res: Response;
      try {
        res = await fetch(target, {
          headers: { authorization: String(req.headers.authorization ?? ''), accept: String(req.headers.accept ?? '*/*') },
          redirect: 'manual',
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
      } catch (err) {
        if ((err as Error).name === 'TimeoutError') throw new ApiError('GATEWAY_TIMEOUT', `The AI API did not answer within ${TIMEOUT_MS / 1000} s`);
        throw new ApiError('BAD_GATEWAY', 'The AI API could not be reached; try again');
      }
      for (const h of ANSWER_HEADERS) {
        const v = res.headers.get(h);
        if (v) reply.header(h, v);
      }
      return reply.code(res.status).send(Buffer.from(await res.arrayBuffer()));
    },
  );
});
