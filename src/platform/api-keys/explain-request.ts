// What a key's owner asks the access explainer, and the checks its route makes before asking
// (the explainer itself is in access-layer/explain.ts: it replays the access layer's decision).
import { isIP } from 'node:net';
import { ApiError } from '../../lib/errors.js';

export interface ExplainRequest {
  method: string;
  /** Path with an optional query string, e.g. `/v2/cameras/gate-abcde/ptz/status`. */
  path: string;
  /** The body's `project_exid`, for endpoints whose project comes from the body. */
  project_exid?: string;
  /** The address the request would come from, to check against the key's allow-list. */
  ip?: string;
}

export const explainValidation = (input: ExplainRequest): void => {
  if (!input.path.startsWith('/'))
    throw new ApiError('VALIDATION_ERROR', 'path: must start with /', { details: [{ field: 'path', message: 'must start with /' }] });
  if (input.ip !== undefined && !isIP(input.ip))
    throw new ApiError('VALIDATION_ERROR', 'ip: must be an IPv4 or IPv6 address', { details: [{ field: 'ip', message: 'must be an IPv4 or IPv6 address' }] });
};
