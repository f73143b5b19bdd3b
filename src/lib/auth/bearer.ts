// `Authorization: Bearer <token>`, as every service reads it: the scheme in any case, spaces or tabs, the
// token (no whitespace in it), and nothing after but spaces or tabs.
const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/** The token of a `Bearer` Authorization header; undefined when the header is not of that form. */
export function bearerToken(authorization: string): string | undefined {
  return BEARER.exec(authorization)?.[1];
}

/**
 * The token of the usual form, `Bearer <token>` with one space, without the regular expression (which
 * costs about half a µs on a JWT's length); any other form goes through `bearerToken`. What follows the
 * space is taken as it is, whitespace and all: only for a lookup among tokens known good, which never
 * hold whitespace, so a value that is not a plain token is simply not found.
 */
export function bearerTokenToLookUp(authorization: string): string | undefined {
  return authorization.startsWith('Bearer ') ? authorization.slice(7) : bearerToken(authorization);
}
