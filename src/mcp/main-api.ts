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

  async call<T = unknown>(method: 'GET' | 'POST', path: string): Promise<T> {
    let res: Response;
    try {
      res = await fetch(new URL(path, this.apiUrl), {
        method,
        headers: { authorization: `Bearer ${this.token}`, accept: 'application/json' },
        signal: AbortSignal.timeout(30_000),
      });
    } catch {
      throw new MainApiError(503, 'SERVICE_UNAVAILABLE', 'The main API could not be reached');
    }
    const text = await res.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
    if (!res.ok) {
      const err = (body ?? {}) as { code?: string; message?: string };
      throw new MainApiError(res.status, err.code ?? `HTTP_${res.status}`, err.message ?? (text.slice(0, 200) || res.statusText));
    }
    return body as T;
  }
}

/** A path segment from a tool argument: encoded, so an argument can never change the path. */
export const seg = (v: string | number) => encodeURIComponent(String(v));
