// The main API as the gate report reads it: over HTTP, with the caller's own JWT, so it sees exactly
// what the person may see. Its refusals (401, 403, 404, 400) are passed on with their message.
import { ApiError, type ErrorCode } from '../../lib/errors.js';
import type { GateRead, GateRole } from './pairing.js';

const PAGE = 500;
/** At most this many reads per camera and report (200 pages). */
const MAX_READS = 100_000;

const PASSED_ON: Record<number, ErrorCode> = { 400: 'VALIDATION_ERROR', 401: 'UNAUTHORIZED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND' };

export class MainApi {
  constructor(
    private readonly apiUrl: string,
    private readonly token: string,
  ) {}

  private async get<T>(path: string, query: Record<string, string | number | undefined> = {}): Promise<T> {
    const url = new URL(path, this.apiUrl);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
    let res: Response;
    try {
      res = await fetch(url, { headers: { authorization: `Bearer ${this.token}` }, signal: AbortSignal.timeout(30_000) });
    } catch {
      throw new ApiError('SERVICE_UNAVAILABLE', 'The main API could not be reached; try again');
    }
    const body = (await res.json().catch(() => null)) as { message?: string } | null;
    if (res.ok) return body as T;
    const code = PASSED_ON[res.status];
    if (code) throw new ApiError(code, body?.message ?? `The main API answered ${res.status}`);
    throw new ApiError('BAD_GATEWAY', `The main API answered ${res.status}`);
  }

  project(exid: string) {
    return this.get<{ exid: string; name: string; timezone: string }>(`/v2/projects/${encodeURIComponent(exid)}`);
  }

  cameras(exid: string) {
    return this.get<{ exid: string; name: string }[]>(`/v2/projects/${encodeURIComponent(exid)}/cameras`);
  }

  async gates(exid: string): Promise<Map<string, GateRole>> {
    const rows = await this.get<{ camera_exid: string; role: GateRole }[]>(`/v2/projects/${encodeURIComponent(exid)}/anpr/gates`);
    return new Map(rows.map((g) => [g.camera_exid, g.role]));
  }

  async labels(exid: string): Promise<Map<string, string>> {
    const rows = await this.get<{ plate: string; label: string }[]>(`/v2/projects/${encodeURIComponent(exid)}/anpr/watchlist`);
    return new Map(rows.map((w) => [w.plate, w.label]));
  }

  corrections(exid: string) {
    return this.get<{ event_id: string; plate_before: string; corrected_by: { email: string } | null; created_at: string }[]>(
      `/v2/projects/${encodeURIComponent(exid)}/anpr/corrections`,
    );
  }

  /** A camera's reads between two instants, oldest first, every page. */
  async reads(cameraExid: string, from: string, to: string): Promise<GateRead[]> {
    const out: GateRead[] = [];
    for (let page = 1; ; page++) {
      const res = await this.get<{ data: (GateRead & { captured_at: string })[] }>(`/v2/cameras/${encodeURIComponent(cameraExid)}/anpr`, {
        from,
        to,
        sort: 'asc',
        limit: PAGE,
        page,
      });
      out.push(
        ...res.data.map((e) => ({ id: e.id, camera_exid: cameraExid, plate: e.plate, plate_raw: e.plate_raw, at: e.captured_at, direction: e.direction })),
      );
      if (res.data.length < PAGE) return out;
      if (out.length >= MAX_READS)
        throw new ApiError('VALIDATION_ERROR', `More than ${MAX_READS} reads on camera ${cameraExid} in this range: ask for a shorter one`);
    }
  }
}
