// One list of error codes, one code-to-status map, one error body (docs/access-model.md, wire conventions).
// Handlers and services throw ApiError; the error handler in `http/error-handler.ts` writes it.

const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  INVALID_CREDENTIALS: 401,
  INSUFFICIENT_SCOPE: 403,
  ENDPOINT_CLOSED_TO_KEYS: 403,
  PROJECT_NOT_ALLOWED: 403,
  PERMISSION_DENIED: 403,
  /** The ONVIF passthrough forwards read-only operations only. */
  ONVIF_OPERATION_NOT_ALLOWED: 403,
  /** An impersonated session may not manage API keys, change the password or administer the platform. */
  NOT_ALLOWED_WHILE_IMPERSONATING: 403,
  /** An app's OAuth access token never controls the account: sessions, password, API keys, apps, administration. */
  NOT_ALLOWED_WITH_OAUTH_TOKEN: 403,
  /** An API key used from an address outside its allow-list. */
  IP_NOT_ALLOWED: 403,
  /** A platform admin disabled this account (said only after a correct password). */
  ACCOUNT_DISABLED: 403,
  /** A site recorder's link credential (`orl_…`) opens only the link's connection (docs/site-link.md). */
  LINK_CREDENTIAL_NOT_ACCEPTED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  /** A site link's pairing code that is wrong, used already, or whose link was revoked. */
  PAIRING_CODE_INVALID: 400,
  /** A site link's pairing code past its expiry: create the link again. */
  PAIRING_CODE_EXPIRED: 400,
  /** Weather: the project has no known location (none of its cameras has one). */
  LOCATION_UNKNOWN: 409,
  API_KEY_EXPIRED: 409,
  API_KEY_REVOKED: 409,
  /** A PTZ call to a camera without pan-tilt-zoom. */
  PTZ_NOT_SUPPORTED: 409,
  /** A connector action for a provider the person has not connected (connect it first). */
  CONNECTOR_NOT_CONNECTED: 409,
  /** The server has no client id for this provider: a setting to make, not a request to retry. */
  CONNECTOR_NOT_CONFIGURED: 409,
  /** The client took too long to send its request (headers or body); the connection is closed. */
  REQUEST_TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  URI_TOO_LONG: 414,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
  HEADERS_TOO_LARGE: 431,
  INTERNAL_ERROR: 500,
  BAD_GATEWAY: 502,
  /** A connector's provider no longer accepts the stored tokens, even after a refresh: connect again. */
  CONNECTOR_AUTH_EXPIRED: 502,
  SERVICE_UNAVAILABLE: 503,
  GATEWAY_TIMEOUT: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  details?: unknown;
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details?: unknown;
  /** Extra response headers, e.g. WWW-Authenticate or Retry-After. */
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, opts: { details?: unknown; headers?: Record<string, string> } = {}) {
    const status = ERROR_STATUS[code];
    // A 4xx is an answer to the caller, not a fault of ours: no one reads its stack trace, so none is
    // captured. Server errors keep theirs.
    const limit = Error.stackTraceLimit;
    if (status < 500) Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
    this.details = opts.details;
    this.headers = opts.headers ?? {};
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { code: this.code, message: this.message };
    if (this.details !== undefined) body.details = this.details;
    return body;
  }
}

export const notFound = (what = 'Resource') => new ApiError('NOT_FOUND', `${what} not found`);
export const validation = (field: string, message: string) => new ApiError('VALIDATION_ERROR', `${field}: ${message}`, { details: [{ field, message }] });
