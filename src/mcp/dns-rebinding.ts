// DNS-rebinding protection for the MCP server (the MCP transport spec: servers MUST validate Origin).
// A web page the person visits may get its own host name to resolve to 127.0.0.1 and then talk to
// this server from the browser; two checks stop it before any credential is looked at:
// - Origin: a browser sends it; one that is not this server's own origin (or one configured) is
//   refused. Requests without Origin (assistants, command-line clients) are not from a web page.
// - Host: bound to a loopback address, the server answers only to the names it is known by (its
//   resource URL's host, localhost, 127.0.0.1, [::1]), whatever the port, as the SDK's own
//   hostHeaderValidation middleware does (its transport options for this are deprecated).
import type { FastifyReply, FastifyRequest } from 'fastify';

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

const isLoopbackAddress = (host: string) => host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);

/** The host name (port-agnostic, IPv6 in brackets) of a Host header, or null when it is not one. */
function hostnameOf(hostHeader: string): string | null {
  try {
    return new URL(`http://${hostHeader}`).hostname;
  } catch {
    return null;
  }
}

/** An origin as browsers send it (`scheme://host[:port]`, default port omitted), or null. */
function normaliseOrigin(origin: string): string | null {
  try {
    const u = new URL(origin);
    return u.origin === 'null' ? null : u.origin;
  } catch {
    return null;
  }
}

export interface RebindingGuardOptions {
  /** This server's public resource URL (its origin is always allowed, its host name always answered). */
  resourceUrl: () => string;
  /** More origins allowed to call /mcp from a browser. */
  allowedOrigins?: readonly string[];
  /** The address the server listens on, once listening. */
  listeningHost: () => string | null;
}

const refuse = (reply: FastifyReply, code: 'HOST_NOT_ALLOWED' | 'ORIGIN_NOT_ALLOWED', message: string) =>
  reply.code(403).send({ code, message, request_id: reply.request.id });

export function rebindingGuard(opts: RebindingGuardOptions) {
  const extraOrigins = new Set((opts.allowedOrigins ?? []).map(normaliseOrigin).filter((o): o is string => o !== null));

  /** Host check, for every route of the server. */
  const checkHost = async (req: FastifyRequest, reply: FastifyReply) => {
    const listening = opts.listeningHost();
    if (!listening || !isLoopbackAddress(listening)) return;
    const name = hostnameOf(req.headers.host ?? '');
    const known = new Set([...LOOPBACK_NAMES, new URL(opts.resourceUrl()).hostname]);
    if (!name || !known.has(name))
      return refuse(reply, 'HOST_NOT_ALLOWED', `This server does not answer to the host name ${JSON.stringify(req.headers.host ?? '')}`);
  };

  /** Origin check, for /mcp. */
  const checkOrigin = async (req: FastifyRequest, reply: FastifyReply) => {
    const origin = req.headers.origin;
    if (origin === undefined) return;
    const given = normaliseOrigin(origin);
    if (given && (given === new URL(opts.resourceUrl()).origin || extraOrigins.has(given))) return;
    return refuse(reply, 'ORIGIN_NOT_ALLOWED', `Requests from the web origin ${JSON.stringify(origin)} are not allowed`);
  };

  return { checkHost, checkOrigin };
}
