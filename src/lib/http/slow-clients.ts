// Slow and greedy clients (docs/security.md, "Slow clients"): a request must arrive within the configured
// deadlines or the connection gets 408 and is closed; one address may hold only so many connections;
// the framework's own refusals (timeouts, oversized headers, unparsable requests) answer in our error body.
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { HttpLimits } from '../config/http-limits.js';
import type { ErrorBody, ErrorCode } from '../errors.js';
import { REQUEST_ID_HEADER } from './request-id.js';

/** How often Node looks for connections past their deadline (its default, 30 s, lets a slow client overstay). */
const DEADLINE_CHECK_MS = 1000;

/** Fastify server options that set the deadlines. */
export const deadlineOptions = (limits: HttpLimits) => ({
  requestTimeout: limits.requestTimeoutMs,
  http: { headersTimeout: limits.headersTimeoutMs, connectionsCheckingInterval: DEADLINE_CHECK_MS },
});

const CLIENT_ERRORS: Record<string, [number, ErrorCode, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'REQUEST_TIMEOUT', 'The request was not received in time'],
  HPE_HEADER_OVERFLOW: [431, 'HEADERS_TOO_LARGE', 'The request line and headers are too large'],
};
const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

/** Fastify's clientErrorHandler: what Node refuses before a request exists, answered in the error body. */
export function clientErrorHandler(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message] = CLIENT_ERRORS[err.code ?? ''] ?? [400, 'BAD_REQUEST' as ErrorCode, 'The request could not be parsed'];
  // No request exists yet, so a new id names this answer (request-id.ts).
  const requestId = randomUUID();
  const body = JSON.stringify({ code, message, request_id: requestId } satisfies ErrorBody & { request_id: string });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${REQUEST_ID_HEADER}: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** Closes, at once, a connection from an address that already holds `max` open ones. */
export function capConnectionsPerAddress(app: FastifyInstance, max: number): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  (app.server as Server).on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = (open.get(address) ?? 0) + 1;
    if (count > max) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
