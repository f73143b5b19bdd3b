// `Authorization: Bearer <token>`, as every service reads it: the scheme in any case, spaces or tabs, the
// token (no whitespace in it), and nothing after but spaces or tabs.
const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/** The token of a `Bearer` Authorization header; undefined when the header is not of that form. */
export function bearerToken(authorization: string): string | undefined {
  return BEARER.exec(authorization)?.[1];
}
