// Failures talking to a real camera, and how they show to API callers: a camera that does not answer
// in time is 504 GATEWAY_TIMEOUT, one that refuses, faults or answers nonsense is 502 BAD_GATEWAY.
import { ApiError } from '../../lib/errors.js';

export class CameraTimeoutError extends Error {
  override name = 'CameraTimeoutError';
}

/** The camera answered, but not usefully: a SOAP fault, an HTTP error, not an image. */
export class CameraAnswerError extends Error {
  override name = 'CameraAnswerError';
}

/** An ApiError for a failed exchange with a camera; ApiErrors (404 unknown preset…) pass through. */
export function upstreamError(err: unknown, action: string): ApiError {
  if (err instanceof ApiError) return err;
  const e = err as Error;
  if (e instanceof CameraTimeoutError || e?.name === 'HttpClientRequestTimeoutError' || e?.name === 'TimeoutError') {
    return new ApiError('GATEWAY_TIMEOUT', `The camera did not answer in time (${action})`);
  }
  return new ApiError('BAD_GATEWAY', `The camera failed to ${action}: ${e?.message ?? String(err)}`);
}
