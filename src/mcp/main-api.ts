// The MCP server's tools call the main API over HTTP as the person (their own token), so every tool
// applies exactly the access rules of the HTTP API for that person: nothing is decided here.
export class MainApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export class MainApi {
  constructor(
    private readonly apiUrl: string,
    private readonly token: string,
  ) {}

  async call<T = unknown>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    let res: Response;
    try {
      res = await fetch(new URL(path, this.apiUrl), {
        method,
        headers: { authorization: `Bearer ${this.token}`, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(30_000),
      });
    } catch {
      throw new MainApiError(503, 'SERVICE_UNAVAILABLE', 'The main API could not be reached');
    }
    const text = await res.text();
    let answer: unknown = null;
    try {
      answer = text ? JSON.parse(text) : null;
    } catch {
      answer = null;
    }
    if (!res.ok) {
      const err = (answer ?? {}) as { code?: string; message?: string };
      throw new MainApiError(res.status, err.code ?? `HTTP_${res.status}`, err.message ?? (text.slice(0, 200) || res.statusText));
    }
    return answer as T;
  }
}

/** A tool argument that cannot be a path segment; the tool answers it as an error. */
export class ToolArgumentError extends Error {}

/**
 * A path segment from a tool argument, so an argument can never change the path: `.` and `..` (which
 * URL parsing resolves, moving up a segment), empty values, slashes and backslashes (plain or
 * percent-encoded) and control characters are refused; anything else is percent-encoded.
 */
export function seg(v: string | number): string {
  const s = String(v);
  if (s === '' || s === '.' || s === '..') throw new ToolArgumentError(`${JSON.stringify(s)} is not a valid identifier`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[/\\\u0000-\u001f\u007f]|%(2f|5c|2e)/i.test(s))
    throw new ToolArgumentError(`${JSON.stringify(s)} is not a valid identifier (no slashes, dots encoding or control characters)`);
  return encodeURIComponent(s);
}
