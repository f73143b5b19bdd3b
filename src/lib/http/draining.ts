// A service that is closing answers every request that still reaches it (on a keep-alive connection
// opened before) with our 503 body, Retry-After and `Connection: close`, so a balancer or client sends it
// again elsewhere; requests already being handled finish (docs/deploy.md, Rolling restart).
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.js';

/** Seconds a client is told to wait: another node, or this one restarted, answers by then. */
const DRAINING_RETRY_AFTER_S = 1;
/**
 * How long a connection stays open once the answer in flight on it is sent. Closing idle connections
 * happens once, when close() starts; an answer still being written then (a stream) leaves its
 * connection open for the full keep-alive timeout, and close() waits for it.
 */
const DRAINING_KEEP_ALIVE_MS = 1000;

export function installDraining(app: FastifyInstance): void {
  let draining = false;
  // preClose runs as soon as close() starts, before the server stops accepting connections.
  app.addHook('preClose', async () => {
    draining = true;
    // Node applies the timeout to each connection when its answer ends (http.Server keepAliveTimeout).
    app.server.keepAliveTimeout = DRAINING_KEEP_ALIVE_MS;
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (!draining) return;
    reply.header('connection', 'close');
    throw new ApiError('SERVICE_UNAVAILABLE', 'This node is shutting down; send the request again', {
      headers: { 'retry-after': String(DRAINING_RETRY_AFTER_S) },
    });
  });
}
