// The events linked recorders sent, per camera (docs/site-link.md, Events), newest first.
import { pageMeta, pageOffset } from '../../lib/http/pagination.js';
import { rangeOrFail } from '../../lib/time/read-time.js';
import type { CamerasService } from '../cameras/index.js';
import type { PlatformDb } from '../database.js';
import * as repo from './recorder-links-repository.js';

export interface EventsQuery {
  kind?: string;
  from?: string;
  to?: string;
  page: number;
  pageSize: number;
}

export class RecorderEvents {
  constructor(
    private readonly db: PlatformDb,
    private readonly cameras: CamerasService,
  ) {}

  async list(cameraExid: string, q: EventsQuery) {
    const camera = await this.cameras.row(cameraExid);
    const { from, to } = rangeOrFail(q.from, q.to);
    const { total, rows } = await repo.eventsOfCamera(
      this.db,
      camera.id,
      { kind: q.kind, from, to },
      { limit: q.pageSize, offset: pageOffset(q.page, q.pageSize) },
    );
    return {
      meta: pageMeta(q.page, q.pageSize, total),
      data: rows.map((r) => ({
        id: r.id,
        camera_exid: camera.exid,
        kind: r.kind,
        at: r.at,
        data: JSON.parse(r.data) as Record<string, unknown>,
        anpr_event_id: r.anpr_event_id,
        created_at: r.created_at,
      })),
    };
  }
}
