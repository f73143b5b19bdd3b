// What every service's OpenAPI transform adds to a route's schema, in the document only (the route's own
// schema, which validates and serialises, is left alone): the error answers its access rule implies, and
// a named parameter for a trailing wildcard. Each service passes the statuses its rule implies.

/** Any request can be refused before it reaches a route: a NUL in the address is 400 (validation.ts). */
export const ANY_REQUEST_ERRORS = [400] as const;

type RouteSchema = Record<string, unknown> & { response?: Record<string, unknown>; params?: unknown };

/** `schema` with an error-body response for each of `statuses` the route does not declare itself. */
export function withErrorResponses(schema: RouteSchema, statuses: readonly number[]): RouteSchema {
  const response = { ...(schema.response ?? {}) };
  for (const status of statuses) if (!(status in response) && !(String(status) in response)) response[status] = { $ref: 'ErrorResponse#' };
  return { ...schema, response };
}

/**
 * A trailing `*` (a proxy passing any sub-path through) as a named path parameter: OpenAPI names every
 * templated segment, and `{*}` is not a name linters or client generators accept.
 */
export const WILDCARD_PARAM = 'path';

export function namedWildcard(url: string, schema: RouteSchema): { url: string; schema: RouteSchema } {
  if (!url.endsWith('/*')) return { url, schema };
  const params = {
    type: 'object',
    properties: { [WILDCARD_PARAM]: { type: 'string', description: 'The rest of the path, passed through as it is (may hold `/`)' } },
    required: [WILDCARD_PARAM],
  };
  return { url: `${url.slice(0, -1)}:${WILDCARD_PARAM}`, schema: { ...schema, params } };
}

type OpenApiDocument = { components?: Record<string, unknown>; paths?: Record<string, Record<string, { responses?: Record<string, unknown> }>> };
const ERROR_SCHEMA_REF = '#/components/schemas/ErrorResponse';

/**
 * The document with each error answer written once, in `components.responses.Error`, and referred to
 * from every operation: some 1,900 answers share it, and the smaller document loads faster in the
 * reference page (docs/decisions.md).
 */
export function shareErrorResponses<T extends object>(doc: T): T {
  const d = doc as OpenApiDocument;
  let shared = false;
  for (const ops of Object.values(d.paths ?? {})) {
    for (const op of Object.values(ops)) {
      for (const [status, answer] of Object.entries(op.responses ?? {})) {
        const a = answer as { description?: string; content?: Record<string, { schema?: { $ref?: string } }> };
        const types = Object.keys(a.content ?? {});
        if (a.description !== 'Error' || types.length !== 1 || a.content?.['application/json']?.schema?.$ref !== ERROR_SCHEMA_REF) continue;
        op.responses![status] = { $ref: '#/components/responses/Error' };
        shared = true;
      }
    }
  }
  if (shared) {
    const responses = { Error: { description: 'Error', content: { 'application/json': { schema: { $ref: ERROR_SCHEMA_REF } } } } };
    d.components = { ...(d.components ?? {}), responses: { ...((d.components?.responses as object) ?? {}), ...responses } };
  }
  return doc;
}
