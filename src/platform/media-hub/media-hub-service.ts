// The media hub's rules: which items a project has, what each kind needs to be created, what an edit
// changes (an edit of render options queues the render again), retries of failed renders, and the
// stored files. Renders themselves run in the job runner; this service only queues them.
import type { Readable } from 'node:stream';
import { newId } from '../../lib/ids.js';
import { ApiError, notFound, validation } from '../../lib/errors.js';
import { pageMeta, pageOffset, type PageMeta } from '../../lib/http/pagination.js';
import type { MediaHubItemsTable } from './media-hub-tables.js';
import type { ObjectStore } from '../storage/index.js';
import type { ProjectRef } from '../access/index.js';
import type { SnapshotIndex } from '../recordings/index.js';
import { parseTimestamp } from '../../lib/time/read-time.js';
import { toMediaItem, type ItemRow, type MediaItem } from './media-item-record.js';
import type { Kind } from './media-hub-tables.js';
import type { MediaItemsRepository } from './media-items-repository.js';
import type { MediaJobRunner } from './job-runner.js';
import { HHMM, type DailySchedule } from './frame-selection.js';
import { mediaKey, type VideoOptions } from './renderers.js';
import { checkedFile, checkedLogo, imageThumbnail } from './uploads.js';

/** Clips are short: longer spans are what timelapses are for. */
const CLIP_MAX_MS = 24 * 3_600_000;
const DEFAULT_WIDTH = 640;

export interface ListQuery {
  type?: Kind;
  camera_exid?: string;
  requester?: string;
  from_date?: string;
  to_date?: string;
  sort?: 'created_at_desc' | 'created_at_asc' | 'title_asc' | 'title_desc';
  page?: number;
  page_size?: number;
  limit?: number;
}

interface Common {
  title: string;
  public?: boolean;
}
interface VideoInput {
  width?: number;
  timestamp?: boolean;
  logo?: string | null;
  logo_position?: VideoOptions['logo_position'];
}
export interface ItemInput extends Common {
  type: 'url' | 'file';
  camera_exid?: string;
  url?: string;
  file?: string;
  file_name?: string;
  content_type?: string;
}
export interface ClipInput extends Common, VideoInput {
  camera_exid: string;
  from_date: string;
  to_date: string;
  fps?: number;
}
export interface TimelapseInput extends Common, VideoInput {
  camera_exid: string;
  from_date?: string;
  to_date?: string;
  from_datetime?: string;
  to_datetime?: string;
  duration: number;
  schedule?: DailySchedule | null;
}
export interface CompareInput extends Common {
  camera_exid: string;
  before_date: string;
  after_date: string;
  width?: number;
  timestamp?: boolean;
}
export type ItemPatch = { title?: string; public?: boolean; url?: string };
export type TimelapsePatch = Partial<Omit<TimelapseInput, 'camera_exid'>>;
export type ComparePatch = Partial<Omit<CompareInput, 'camera_exid'>>;

/** An instant the caller gave, as ISO text; `end` reads a date or minute as the end of that span. */
function instant(field: string, raw: string, end = false): string {
  const t = parseTimestamp(field, raw);
  return new Date(end ? t.ms + t.precisionMs - 1 : t.ms).toISOString();
}

function checkedUrl(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw validation('url', 'must be an absolute http or https URL');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw validation('url', 'must be an http or https URL');
  if (u.username || u.password) throw validation('url', 'must not carry credentials');
  return u.toString();
}

function checkedSchedule(s: DailySchedule | null | undefined): DailySchedule | null {
  if (!s) return null;
  if (!HHMM.test(s.from)) throw validation('schedule.from', 'must be HH:MM (00:00–23:59)');
  if (!HHMM.test(s.to)) throw validation('schedule.to', 'must be HH:MM (00:00–23:59)');
  if (s.from === s.to) throw validation('schedule', 'from and to must differ');
  if (s.days && (s.days.length === 0 || s.days.some((d) => !Number.isInteger(d) || d < 0 || d > 6)))
    throw validation('schedule.days', 'must list weekdays 0 (Sunday) to 6');
  return s.days ? { from: s.from, to: s.to, days: [...new Set(s.days)].sort() } : { from: s.from, to: s.to };
}

export class MediaHubService {
  constructor(
    private readonly repo: MediaItemsRepository,
    private readonly storage: ObjectStore,
    private readonly runner: MediaJobRunner,
    private readonly snapshots: SnapshotIndex,
    private readonly opts: { publicUrl: string; fileMaxBytes: number },
  ) {}

  /** Whether the camera recorded any frame in [from, to] (ISO, both inclusive). */
  private async recorded(cameraId: string, from: string, to: string): Promise<boolean> {
    return (await this.snapshots.firstIn(cameraId, from, new Date(Date.parse(to) + 1).toISOString())) !== null;
  }

  private view(r: ItemRow): MediaItem {
    return toMediaItem(r, this.opts.publicUrl);
  }

  /** The project of an item, for the access layer (`fromRecord`). */
  projectOfItem(id: string) {
    return this.repo.projectOf(id);
  }

  async list(project: ProjectRef, q: ListQuery): Promise<{ meta: PageMeta; data: MediaItem[] }> {
    const page = q.page ?? 1;
    const size = q.page_size ?? q.limit ?? 50;
    let cameraId: string | undefined;
    if (q.camera_exid) {
      const cam = await this.repo.cameraByExid(q.camera_exid);
      // A camera of another project simply has no items here.
      cameraId = cam && cam.project_id === project.id ? cam.id : '-';
    }
    const from = q.from_date ? instant('from_date', q.from_date) : undefined;
    const to = q.to_date ? instant('to_date', q.to_date, true) : undefined;
    if (from && to && from > to) throw validation('to_date', 'must not be before from_date');
    const { rows, total } = await this.repo.list(project.id, {
      kind: q.type,
      cameraId,
      requesterEmail: q.requester,
      from,
      to,
      sort: q.sort ?? 'created_at_desc',
      limit: size,
      offset: pageOffset(page, size),
    });
    return { meta: pageMeta(page, size, total), data: rows.map((r) => this.view(r)) };
  }

  requesters(project: ProjectRef) {
    return this.repo.requesters(project.id).then((users) => ({ users }));
  }

  /** The item, in this project, of this kind when the route names one. */
  async get(project: ProjectRef, id: string, kind?: Kind): Promise<MediaItem> {
    return this.view(await this.row(project, id, kind));
  }

  private async row(project: ProjectRef, id: string, kind?: Kind): Promise<ItemRow> {
    const r = await this.repo.get(id);
    if (!r || r.project_id !== project.id || (kind && r.kind !== kind)) throw notFound(kind ? `${kind[0]!.toUpperCase()}${kind.slice(1)}` : 'Media hub item');
    return r;
  }

  private async camera(project: ProjectRef, exid: string): Promise<string> {
    const cam = await this.repo.cameraByExid(exid);
    if (!cam || cam.project_id !== project.id) throw validation('camera_exid', 'is not a camera of this project');
    return cam.id;
  }

  private async insert(
    project: ProjectRef,
    userId: string,
    row: Partial<MediaHubItemsTable> & Pick<MediaHubItemsTable, 'kind' | 'title' | 'status'>,
  ): Promise<MediaItem> {
    const now = new Date().toISOString();
    const id = row.id ?? newId();
    await this.repo.insert({
      project_id: project.id,
      camera_id: null,
      from_date: null,
      to_date: null,
      requester_id: userId,
      requester_email: ((await this.repo.userEmail(userId)) ?? 'unknown').toLowerCase(),
      is_public: 0,
      options: '{}',
      link_url: null,
      file_name: null,
      content_type: null,
      file_size: null,
      object_key: null,
      gif_key: null,
      thumbnail_key: null,
      logo_key: null,
      error: null,
      attempts: 0,
      created_at: now,
      updated_at: now,
      completed_at: row.status === 'completed' ? now : null,
      ...row,
      id,
    });
    return row.status === 'pending' ? this.replyThenKick(id) : this.view((await this.repo.get(id))!);
  }

  /** url and file items: ready at once, nothing to render. */
  async create(project: ProjectRef, userId: string, input: ItemInput): Promise<MediaItem> {
    const cameraId = input.camera_exid ? await this.camera(project, input.camera_exid) : null;
    const common = { title: input.title, is_public: input.public ? 1 : 0, camera_id: cameraId, status: 'completed' as const };
    if (input.type === 'url') {
      if (!input.url) throw validation('url', 'is required for url items');
      if (input.file !== undefined) throw validation('file', 'url items take no file');
      return this.insert(project, userId, { ...common, kind: 'url', link_url: checkedUrl(input.url) });
    }
    if (!input.file) throw validation('file', 'is required for file items (base64)');
    if (input.url !== undefined) throw validation('url', 'file items take no url');
    const { bytes, type } = checkedFile(input.file, input.content_type, this.opts.fileMaxBytes);
    const id = newId();
    const objectKey = mediaKey(project.id, id, 'file');
    await this.storage.put(objectKey, bytes, type);
    const thumb = await imageThumbnail(bytes, type);
    const thumbnailKey = thumb ? mediaKey(project.id, id, 'thumbnail.jpg') : null;
    if (thumb && thumbnailKey) await this.storage.put(thumbnailKey, thumb, 'image/jpeg');
    return this.insert(project, userId, {
      ...common,
      id,
      kind: 'file',
      file_name: input.file_name ?? null,
      content_type: type,
      file_size: bytes.length,
      object_key: objectKey,
      thumbnail_key: thumbnailKey,
    });
  }

  private async storeLogo(project: ProjectRef, id: string, logo: string): Promise<string> {
    const png = await checkedLogo(logo, this.opts.fileMaxBytes);
    const key = mediaKey(project.id, id, 'logo.png');
    await this.storage.put(key, png, 'image/png');
    return key;
  }

  private videoOptions(input: VideoInput, base?: Record<string, unknown>): Record<string, unknown> {
    return {
      width: input.width ?? base?.width ?? DEFAULT_WIDTH,
      timestamp: input.timestamp ?? base?.timestamp ?? true,
      logo_position: input.logo_position ?? base?.logo_position ?? 'top-right',
    };
  }

  async createClip(project: ProjectRef, userId: string, input: ClipInput): Promise<MediaItem> {
    const cameraId = await this.camera(project, input.camera_exid);
    const from = instant('from_date', input.from_date);
    const to = instant('to_date', input.to_date, true);
    if (from >= to) throw validation('to_date', 'must be after from_date');
    if (Date.parse(to) - Date.parse(from) > CLIP_MAX_MS) throw validation('to_date', 'a clip spans at most 24 hours (use a timelapse for longer)');
    // Refused now rather than queued to fail: a clip of nothing can never render.
    if (!(await this.recorded(cameraId, from, to))) throw validation('from_date', 'the camera recorded no frames between these times');
    const id = newId();
    const logoKey = input.logo ? await this.storeLogo(project, id, input.logo) : null;
    const options = { ...this.videoOptions(input), fps: input.fps ?? 4, logo: !!logoKey };
    return this.insert(project, userId, {
      id,
      kind: 'clip',
      title: input.title,
      status: 'pending',
      camera_id: cameraId,
      from_date: from,
      to_date: to,
      is_public: input.public ? 1 : 0,
      options: JSON.stringify(options),
      logo_key: logoKey,
    });
  }

  private timelapseRange(
    input: { from_date?: string; to_date?: string; from_datetime?: string; to_datetime?: string },
    current?: { from: string | null; to: string | null },
  ) {
    const rawFrom = input.from_date ?? input.from_datetime;
    const rawTo = input.to_date ?? input.to_datetime;
    const from = rawFrom !== undefined ? instant('from_date', rawFrom) : current?.from;
    const to = rawTo !== undefined ? instant('to_date', rawTo, true) : current?.to;
    if (!from) throw validation('from_date', 'is required');
    if (!to) throw validation('to_date', 'is required');
    if (from >= to) throw validation('to_date', 'must be after from_date');
    return { from, to };
  }

  async createTimelapse(project: ProjectRef, userId: string, input: TimelapseInput): Promise<MediaItem> {
    const cameraId = await this.camera(project, input.camera_exid);
    const { from, to } = this.timelapseRange(input);
    const schedule = checkedSchedule(input.schedule);
    const id = newId();
    const logoKey = input.logo ? await this.storeLogo(project, id, input.logo) : null;
    const options = { ...this.videoOptions(input), duration: input.duration, schedule, logo: !!logoKey };
    return this.insert(project, userId, {
      id,
      kind: 'timelapse',
      title: input.title,
      status: 'pending',
      camera_id: cameraId,
      from_date: from,
      to_date: to,
      is_public: input.public ? 1 : 0,
      options: JSON.stringify(options),
      logo_key: logoKey,
    });
  }

  async createCompare(project: ProjectRef, userId: string, input: CompareInput): Promise<MediaItem> {
    const cameraId = await this.camera(project, input.camera_exid);
    const before = instant('before_date', input.before_date);
    const after = instant('after_date', input.after_date);
    if (before >= after) throw validation('after_date', 'must be after before_date');
    const options = { width: input.width ?? DEFAULT_WIDTH, timestamp: input.timestamp ?? true, before_date: before, after_date: after };
    return this.insert(project, userId, {
      kind: 'compare',
      title: input.title,
      status: 'pending',
      camera_id: cameraId,
      from_date: before,
      to_date: after,
      is_public: input.public ? 1 : 0,
      options: JSON.stringify(options),
    });
  }

  /** Title, visibility, and a url item's link. */
  async patch(project: ProjectRef, id: string, p: ItemPatch): Promise<MediaItem> {
    const r = await this.row(project, id);
    const set: Partial<MediaHubItemsTable> = {};
    if (p.title !== undefined) set.title = p.title;
    if (p.public !== undefined) set.is_public = p.public ? 1 : 0;
    if (p.url !== undefined) {
      if (r.kind !== 'url') throw validation('url', 'only url items have a link');
      set.link_url = checkedUrl(p.url);
    }
    await this.repo.update(id, set);
    return this.view((await this.repo.get(id))!);
  }

  /** Render options changed: the render is queued again (the running one, if any, is stopped); the runner is woken by replyThenKick. */
  private async requeue(id: string, set: Partial<MediaHubItemsTable>): Promise<void> {
    this.runner.cancel(id);
    await this.repo.update(id, { ...set, status: 'pending', error: null, completed_at: null });
  }

  /**
   * The queued item as stored, then the runner woken: read before the kick, the reply describes the
   * state the caller made (pending), not whatever the runner has moved it on to by a later read.
   */
  private async replyThenKick(id: string): Promise<MediaItem> {
    const item = this.view((await this.repo.get(id))!);
    this.runner.kick();
    return item;
  }

  async patchTimelapse(project: ProjectRef, id: string, p: TimelapsePatch): Promise<MediaItem> {
    const r = await this.row(project, id, 'timelapse');
    const set: Partial<MediaHubItemsTable> = {};
    if (p.title !== undefined) set.title = p.title;
    if (p.public !== undefined) set.is_public = p.public ? 1 : 0;
    const old = JSON.parse(r.options) as Record<string, unknown>;
    const rangeGiven = [p.from_date, p.to_date, p.from_datetime, p.to_datetime].some((v) => v !== undefined);
    const renderGiven = rangeGiven || [p.duration, p.schedule, p.width, p.timestamp, p.logo, p.logo_position].some((v) => v !== undefined);
    if (renderGiven) {
      const { from, to } = this.timelapseRange(p, { from: r.from_date, to: r.to_date });
      let logoKey = r.logo_key;
      if (p.logo === null) logoKey = null;
      else if (p.logo) logoKey = await this.storeLogo(project, id, p.logo);
      if (r.logo_key && !logoKey) await this.storage.delete([r.logo_key]);
      const schedule = p.schedule === undefined ? (old.schedule as DailySchedule | null) : checkedSchedule(p.schedule);
      const options = { ...this.videoOptions(p, old), duration: p.duration ?? old.duration, schedule, logo: !!logoKey };
      await this.requeue(id, { ...set, from_date: from, to_date: to, options: JSON.stringify(options), logo_key: logoKey });
      return this.replyThenKick(id);
    }
    await this.repo.update(id, set);
    return this.view((await this.repo.get(id))!);
  }

  async patchCompare(project: ProjectRef, id: string, p: ComparePatch): Promise<MediaItem> {
    const r = await this.row(project, id, 'compare');
    const set: Partial<MediaHubItemsTable> = {};
    if (p.title !== undefined) set.title = p.title;
    if (p.public !== undefined) set.is_public = p.public ? 1 : 0;
    const old = JSON.parse(r.options) as Record<string, unknown>;
    if ([p.before_date, p.after_date, p.width, p.timestamp].some((v) => v !== undefined)) {
      const before = p.before_date !== undefined ? instant('before_date', p.before_date) : (old.before_date as string);
      const after = p.after_date !== undefined ? instant('after_date', p.after_date) : (old.after_date as string);
      if (before >= after) throw validation('after_date', 'must be after before_date');
      const options = { width: p.width ?? old.width, timestamp: p.timestamp ?? old.timestamp, before_date: before, after_date: after };
      await this.requeue(id, { ...set, from_date: before, to_date: after, options: JSON.stringify(options) });
      return this.replyThenKick(id);
    }
    await this.repo.update(id, set);
    return this.view((await this.repo.get(id))!);
  }

  /** A failed render queued again, with the same options. */
  async retry(project: ProjectRef, id: string): Promise<MediaItem> {
    const r = await this.row(project, id);
    if (r.kind === 'url' || r.kind === 'file') throw new ApiError('CONFLICT', `A ${r.kind} item has no render to retry`);
    if (r.status !== 'failed') throw new ApiError('CONFLICT', `Only failed renders can be retried (this one is ${r.status})`);
    // A retry that cannot succeed is refused: the range (or, for a compare, the camera) has no frames.
    if (r.camera_id && r.from_date && r.to_date) {
      if (r.kind === 'compare' && !(await this.snapshots.latest(r.camera_id))) throw new ApiError('CONFLICT', 'The camera has no recorded frames to compare');
      if (r.kind !== 'compare' && !(await this.recorded(r.camera_id, r.from_date, r.to_date)))
        throw new ApiError('CONFLICT', 'The camera recorded no frames in this range, so the render would fail again');
    }
    await this.requeue(id, {});
    return this.replyThenKick(id);
  }

  async delete(project: ProjectRef, id: string, kind?: Kind): Promise<void> {
    const r = await this.row(project, id, kind);
    this.runner.cancel(id);
    await this.storage.delete([r.object_key, r.gif_key, r.thumbnail_key, r.logo_key].filter((k): k is string => !!k));
    await this.repo.delete(id);
  }

  /** The stored media of an item (the MP4, the compare's GIF with format=gif, or the uploaded file). */
  async file(id: string, format?: 'mp4' | 'gif'): Promise<{ body: Readable; size: number; contentType: string; fileName: string }> {
    const r = await this.repo.get(id);
    if (!r) throw notFound('Media hub item');
    if (r.kind === 'url') throw new ApiError('NOT_FOUND', 'A url item has no stored file: its media_url is the link');
    if (format === 'gif' && r.kind !== 'compare') throw validation('format', 'only compares have a GIF');
    if (r.status !== 'completed') throw new ApiError('CONFLICT', `The render is ${r.status}${r.error ? `: ${r.error}` : ''}`);
    const key = format === 'gif' ? r.gif_key : r.object_key;
    const obj = key ? await this.storage.get(key) : null;
    if (!obj) throw notFound('Stored file');
    const ext = format === 'gif' ? 'gif' : r.kind === 'file' ? '' : 'mp4';
    const fileName = r.kind === 'file' ? (r.file_name ?? `${r.id}`) : `${r.id}.${ext}`;
    // The row knows the type (some stores keep none).
    return { body: obj.body, size: obj.size, contentType: format === 'gif' ? 'image/gif' : (r.content_type ?? obj.contentType), fileName };
  }

  /** Bytes `start`…`end` (inclusive) of the stored media, for players that seek (HTTP Range). */
  async fileRange(
    id: string,
    format: 'mp4' | 'gif' | undefined,
    start: number,
    end: number,
  ): Promise<{ bytes: Buffer; size: number; contentType: string; fileName: string } | null> {
    const f = await this.file(id, format);
    f.body.destroy();
    if (start >= f.size) return null;
    const r = (await this.repo.get(id))!;
    const all = await this.storage.getBytes((format === 'gif' ? r.gif_key : r.object_key)!);
    if (!all) throw notFound('Stored file');
    return { bytes: all.subarray(start, Math.min(end, all.length - 1) + 1), size: all.length, contentType: f.contentType, fileName: f.fileName };
  }

  async thumbnail(id: string): Promise<Buffer> {
    const r = await this.repo.get(id);
    if (!r) throw notFound('Media hub item');
    const bytes = r.thumbnail_key ? await this.storage.getBytes(r.thumbnail_key) : null;
    if (!bytes) throw new ApiError('NOT_FOUND', r.status === 'completed' ? 'This item has no thumbnail' : `No thumbnail yet: the render is ${r.status}`);
    return bytes;
  }

  /** Stored objects of a camera's or project's items (deletion hooks; rows follow by cascade). */
  async removeObjects(where: { projectId?: string; cameraId?: string }): Promise<void> {
    const keys = await this.repo.objectKeys(where);
    for (let i = 0; i < keys.length; i += 500) await this.storage.delete(keys.slice(i, i + 500));
  }
}
