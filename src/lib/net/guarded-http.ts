// HTTP clients that connect only where the outbound guard allows, to the address it checked: an undici
// dispatcher (urllib, undici's fetch) and a node:http agent (libraries built on http.request, such as
// the ONVIF client). TLS still verifies the certificate against the host name, not the address.
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, buildConnector } from 'undici';
import { OutboundRefusedError, type OutboundGuard, type ResolvedAddress } from './outbound-guard.js';

const bare = (host: string) => (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host);

/**
 * An undici dispatcher whose every connection is checked first and made to the checked address. It
 * follows no redirects itself; a client that does (fetch) goes through it again for each hop.
 */
export function guardedDispatcher(guard: OutboundGuard, opts: { connectTimeoutMs?: number } = {}): Agent {
  const connect = buildConnector({ timeout: opts.connectTimeoutMs });
  return new Agent({
    connect: (options, callback) => {
      const host = bare(options.hostname);
      const port = Number(options.port) || (options.protocol === 'https:' ? 443 : 80);
      guard.check(host, port).then(
        (pinned) => {
          try {
            // The name stays the TLS server name, so the certificate is checked against it (an address is never one).
            const servername = options.servername || (isIP(host) ? undefined : host);
            connect({ ...options, hostname: pinned.address, servername } as buildConnector.Options, callback);
          } catch (err) {
            callback(err as Error, null);
          }
        },
        (err: Error) => callback(err, null),
      );
    },
  });
}

/** A lookup that answers only the checked address, in whichever shape net asks for. */
const pinnedLookup =
  (pinned: ResolvedAddress): LookupFunction =>
  (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };

/**
 * A node:http(s) agent for one checked host and port: every connection goes to the checked address,
 * and a connection to any other port is refused (a library cannot wander off to another service).
 */
export async function pinnedAgent(guard: OutboundGuard, hostname: string, port: number, secure: boolean): Promise<http.Agent> {
  const pinned = await guard.check(hostname, port);
  const agent: http.Agent = secure ? new https.Agent() : new http.Agent();
  const create = agent.createConnection.bind(agent) as (o: object, cb?: unknown) => unknown;
  (agent as unknown as { createConnection: unknown }).createConnection = (options: { port?: number | string }, cb?: (err: Error | null) => void) => {
    // Reported through the callback, so the request emits it as its error.
    if (Number(options.port) !== port) return cb?.(new OutboundRefusedError());
    return create({ ...options, lookup: pinnedLookup(pinned) }, cb);
  };
  return agent;
}
