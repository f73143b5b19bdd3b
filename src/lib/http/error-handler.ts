// One error handler and one not-found handler for every service: the error body of docs/access-model.md,
// framework errors mapped to our codes, and internal detail kept in the logs (a log id goes to the client).
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, type ErrorCode } from '../errors.js';
import { isDatabaseFull, isDatabaseUnreachable } from '../db/unreachable.js';

/** Seconds a client is asked to wait after a 503 that names no other wait, such as the database out of reach (docs/deploy.md). */
const DATABASE_RETRY_AFTER_S = 2;

const FRAMEWORK_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'VALIDATION_ERROR',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'VALIDATION_ERROR',
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'BAD_REQUEST',
  FST_ERR_CTP_INVALID_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_BAD_URL: 'BAD_REQUEST',
  FST_ERR_ASYNC_CONSTRAINT: 'BAD_REQUEST',
};

type ValidationItem = { instancePath?: string; message?: string; params?: Record<string, unknown>; keyword?: string };

function validationDetails(err: FastifyError): { field: string; message: string }[] {
  const items = (err.validation ?? []) as ValidationItem[];
  return items.map((v) => {
    let field = (v.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
    const missing = v.params?.missingProperty ?? v.params?.additionalProperty;
    if (typeof missing === 'string') field = field ? `${field}.${missing}` : missing;
    const where = err.validationContext && err.validationContext !== 'body' ? `${err.validationContext}` : '';
    const name = [where === 'querystring' ? 'query' : where, field].filter(Boolean).join('.') || where || 'body';
    const message = v.keyword === 'additionalProperties' ? 'is not a known field' : (v.message ?? 'is invalid');
    return { field: name, message };
  });
}

function sendError(reply: FastifyReply, err: ApiError): FastifyReply {
  for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
  if (err.status === 401 && !reply.hasHeader('www-authenticate')) {
    reply.header('www-authenticate', 'Bearer realm="overlook"');
  }
  // Every 503 is a passing condition here (a node busy, starting or restarting, a store out of reach):
  // say when to try again, so clients and balancers back off instead of hammering or giving up.
  if (err.status === 503 && !reply.hasHeader('retry-after')) reply.header('retry-after', String(DATABASE_RETRY_AFTER_S));
  // The request id lets a client's report be matched with the logs (request-id.ts).
  return reply
    .code(err.status)
    .type('application/json; charset=utf-8')
    .send({ ...err.toBody(), request_id: reply.request.id });
}

function toApiError(error: unknown, request: FastifyRequest): ApiError {
  if (error instanceof ApiError) return error;
  const err = error as FastifyError;
  if (err?.validation) {
    const details = validationDetails(err);
    const first = details[0];
    return new ApiError('VALIDATION_ERROR', first ? `${first.field}: ${first.message}` : 'The request is invalid', { details });
  }
  const mapped = err?.code ? FRAMEWORK_CODES[err.code] : undefined;
  if (mapped) return new ApiError(mapped, err.message);
  const status = typeof err?.statusCode === 'number' ? err.statusCode : 500;
  if (status >= 400 && status < 500) {
    const code: ErrorCode =
      status === 404
        ? 'NOT_FOUND'
        : status === 413
          ? 'PAYLOAD_TOO_LARGE'
          : status === 415
            ? 'UNSUPPORTED_MEDIA_TYPE'
            : status === 429
              ? 'TOO_MANY_REQUESTS'
              : 'BAD_REQUEST';
    return new ApiError(code, err.message || 'Bad request');
  }
  if (isDatabaseFull(err)) {
    // Not an outage: the database is up but every connection it allows is taken (docs/deploy.md, Connections).
    request.log.warn({ err, reqId: request.id }, 'database refused a connection: too many clients (max_connections or a connection limit)');
    return new ApiError('SERVICE_UNAVAILABLE', 'The database has no free connection for this node (too many clients); try again shortly', {
      headers: { 'retry-after': String(DATABASE_RETRY_AFTER_S) },
    });
  }
  if (isDatabaseUnreachable(err)) {
    request.log.warn({ err, reqId: request.id }, 'database unreachable');
    return new ApiError('SERVICE_UNAVAILABLE', 'The database cannot be reached; try again shortly', {
      headers: { 'retry-after': String(DATABASE_RETRY_AFTER_S) },
    });
  }
  request.log.error({ err, reqId: request.id }, 'unhandled error');
  return new ApiError('INTERNAL_ERROR', `Internal error (log id ${request.id})`);
}

/** `onNotFound`: told of each request no route matched (the request metrics count them). */
export function installErrorHandling(app: FastifyInstance, onNotFound?: (request: FastifyRequest, reply: FastifyReply) => void): void {
  app.setErrorHandler((error, request, reply) => sendError(reply, toApiError(error, request)));
  app.setNotFoundHandler((request, reply) => {
    onNotFound?.(request, reply);
    return sendError(reply, new ApiError('NOT_FOUND', `No route for ${request.method} ${request.url.split('?')[0]}`.slice(0, 300)));
  });
}
