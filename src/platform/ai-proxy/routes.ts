// The web app's way to the AI API (docs/decisions.md, The web app reaches the AI API through the main
// API): `GET /ai/projects/…` is passed on to the AI API at OVERLOOK_AI_URL with the person's own
// token, through @fastify/reply-from, so the browser talks to one origin. The AI API decides
// everything itself (docs/plates.md); its answers, refusals included, come back as they are. Its paths
// are in its own OpenAPI document.
import replyFrom from '@fastify/reply-from';
import { ApiError } from '../../lib/errors.js';
import { peopleOnly } from '../access/index.js';
import { defineRoutes } from '../plugins/feature.js';

/** The AI API's paths the web app uses; nothing else is passed on. */
const PASSED = /^\/projects\/[^/?#]+\/(gate-report|activity)(\/|\?|$)/;
/** Answer headers passed back (JSON or the CSV download); nothing else of the AI API's. */
const ANSWER_HEADERS = ['content-type', 'content-disposition'];
const TIMEOUT_MS = 30_000;

export const aiProxyRoutes = defineRoutes('ai-proxy-routes', ['config'], async (app, { config }) => {
  const base = config.aiUrl;
  // No retries: a report is read once; the AI API's own pool, closed with the app.
  if (base) await app.register(replyFrom, { base, retryMethods: [], disableRequestLogging: true });
  app.get(
    '/ai/*',
    {
      // The person's token goes on to the AI API, which refuses API keys too.
      config: { access: peopleOnly() },
      schema: { hide: true },
    },
    (req, reply) => {
      if (!base) throw new ApiError('NOT_FOUND', 'This server passes nothing on to the AI API (OVERLOOK_AI_URL is not set)');
      const path = req.url.slice('/ai'.length);
      if (!PASSED.test(path)) throw new ApiError('NOT_FOUND', 'No such AI API path here');
      return reply.from(path, {
        timeout: TIMEOUT_MS,
        rewriteRequestHeaders: () => ({ authorization: String(req.headers.authorization ?? ''), accept: String(req.headers.accept ?? '*/*') }),
        rewriteHeaders: (answer) => {
          const out: Record<string, string> = {};
          for (const h of ANSWER_HEADERS) if (typeof answer[h] === 'string') out[h] = answer[h];
          return out;
        },
        onError: (r, { error }) => {
          const timedOut = (error as { statusCode?: number }).statusCode === 504;
          r.send(
            timedOut
              ? new ApiError('GATEWAY_TIMEOUT', `The AI API did not answer within ${TIMEOUT_MS / 1000} s`)
              : new ApiError('BAD_GATEWAY', 'The AI API could not be reached; try again'),
          );
        },
      });
    },
  );
});
