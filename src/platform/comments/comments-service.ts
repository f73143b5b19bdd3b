// Comments on a project's cameras: pinned to a moment of the recording and a point of the image,
// archived and unarchived, and mentioning members (`@email` in the text, or a list of user ids) who are
// then notified. Mentions of people outside the project are ignored, not refused: the text stays as
// written and nobody outside learns of it. Only the author or a project admin edits or deletes.
import type { PlatformDb } from '../database.js';
import { ApiError, validation } from '../../lib/errors.js';
import { pageMeta, pageOffset, type PageMeta } from '../../lib/http/pagination.js';
import { newId } from '../../lib/ids.js';
import { type ProjectRef, roleAllows, type Role } from '../access/index.js';
import { instantOrFail, rangeOrFail } from '../../lib/time/read-time.js';
import type { NotificationsService } from '../notifications/index.js';
import type { Outbox } from '../outbox/index.js';
import { inTransaction } from '../../lib/db/transaction.js';
import * as repo from './comments-repository.js';
import { cameraOfProject } from '../cameras/index.js';
import { membersAmong } from '../members/index.js';
import { emailsOf, usersAmong } from '../users/index.js';

export interface Position2d {
  x: number;
  y: number;
}

export interface Comment {
  id: string;
  camera_exid: string;
  project_exid: string;
  timestamp: string;
  content: string;
  position2d: Position2d;
  creator_email: string | null;
  creator_name: string | null;
  archived: boolean;
  archived_at: string | null;
  /** E-mails of the members this comment mentions (and notified). */
  mentions: string[];
  created_at: string;
  updated_at: string;
}

export interface Actor {
  userId: string;
  role: Role;
}

// `@` + an e-mail address; trailing punctuation of the sentence is not part of it.
const MENTION = /(?:^|[^\w.+-])@([\w.+-]+@[\w-]+(?:\.[\w-]+)+)/g;

/** The e-mails mentioned in a text, lower-cased, each once. */
function mentionedEmails(text: string): string[] {
  return [...new Set([...text.matchAll(MENTION)].map((m) => m[1]!.toLowerCase()))];
}

function checkPosition(p: Position2d): Position2d {
  for (const axis of ['x', 'y'] as const) {
    const v = p[axis];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1)
      throw validation(`position2d.${axis}`, 'must be between 0 and 1 (a fraction of the image)');
  }
  return { x: p.x, y: p.y };
}

export class CommentsService {
  constructor(
    private readonly db: PlatformDb,
    private readonly notifications: NotificationsService,
    /** `comment.created` is recorded with the comment (docs/notifications.md). */
    private readonly outbox: Outbox,
  ) {}

  async list(
    project: ProjectRef,
    q: { camera_exid?: string; from?: string; to?: string; archived?: 'true' | 'false' | 'all'; page: number; pageSize: number },
  ): Promise<{ meta: PageMeta; data: Comment[] }> {
    const range = rangeOrFail(q.from, q.to);
    let cameraId: string | undefined;
    if (q.camera_exid !== undefined) {
      const cam = await cameraOfProject(this.db, project.id, q.camera_exid);
      if (!cam) throw validation('camera_exid', `camera ${q.camera_exid} is not a camera of this project`);
      cameraId = cam.id;
    }
    const filter: repo.CommentFilter = { projectId: project.id, cameraId, ...range, archived: q.archived ?? 'false' };
    const total = await repo.countComments(this.db, filter);
    const rows = await repo.listComments(this.db, filter, q.pageSize, pageOffset(q.page, q.pageSize));
    return { meta: pageMeta(q.page, q.pageSize, total), data: await this.toComments(rows) };
  }

  async get(project: ProjectRef, id: string): Promise<Comment> {
    return (await this.toComments([await this.row(project, id)]))[0]!;
  }

  async create(
    project: ProjectRef,
    actor: Actor,
    input: { camera_exid: string; timestamp: string; position2d: Position2d; content: string; mentions?: string[] },
  ): Promise<Comment> {
    const camera = await cameraOfProject(this.db, project.id, input.camera_exid);
    if (!camera) throw validation('camera_exid', `camera ${input.camera_exid} is not a camera of this project`);
    const at = instantOrFail(input.timestamp, 'timestamp');
    const position = checkPosition(input.position2d);
    const content = this.content(input.content);
    const now = new Date().toISOString();
    const id = newId();
    const row = {
      id,
      project_id: project.id,
      camera_id: camera.id,
      author_id: actor.userId,
      frame_at: at,
      x: position.x,
      y: position.y,
      content,
      mentions: '[]',
      archived_at: null,
      created_at: now,
      updated_at: now,
    };
    await inTransaction(this.db, async (tx) => {
      await repo.insertComment(tx, row);
      await this.outbox.record(tx, {
        type: 'comment.created',
        projectExid: project.exid,
        cameraExid: input.camera_exid,
        data: { comment_id: id, camera_exid: input.camera_exid, timestamp: at, content, author_id: actor.userId },
      });
    });
    await this.notifyMentions(project, id, actor.userId, [], content, input.mentions ?? []);
    return this.get(project, id);
  }

  /** Edits the text or position, archives or unarchives; newly mentioned members are notified. */
  async update(
    project: ProjectRef,
    actor: Actor,
    id: string,
    input: { content?: string; position2d?: Position2d; archived?: boolean; mentions?: string[] },
  ): Promise<Comment> {
    const row = await this.row(project, id);
    this.mayChange(row, actor);
    const set: Parameters<typeof repo.updateComment>[2] = { updated_at: new Date().toISOString() };
    if (input.content !== undefined) set.content = this.content(input.content);
    if (input.position2d !== undefined) Object.assign(set, checkPosition(input.position2d));
    if (input.archived !== undefined) set.archived_at = input.archived ? (row.archived_at ?? set.updated_at) : null;
    await repo.updateComment(this.db, id, set);
    if (input.content !== undefined || input.mentions !== undefined) {
      await this.notifyMentions(project, id, actor.userId, JSON.parse(row.mentions) as string[], set.content ?? row.content, input.mentions ?? []);
    }
    return this.get(project, id);
  }

  async delete(project: ProjectRef, actor: Actor, id: string): Promise<void> {
    const row = await this.row(project, id);
    this.mayChange(row, actor);
    await repo.deleteComment(this.db, id);
  }

  private async row(project: ProjectRef, id: string): Promise<repo.CommentRow> {
    const row = await repo.commentById(this.db, project.id, id);
    if (!row) throw new ApiError('NOT_FOUND', 'Comment not found');
    return row;
  }

  private mayChange(row: repo.CommentRow, actor: Actor): void {
    if (row.author_id === actor.userId || roleAllows(actor.role, 'admin')) return;
    throw new ApiError('PERMISSION_DENIED', 'Only the comment’s author or a project admin may change or delete it');
  }

  private content(text: string): string {
    const t = text.trim();
    if (t.length === 0) throw validation('content', 'must not be empty');
    return t;
  }

  /** Notifies the members mentioned (by e-mail in the text or by id) who were not notified before. */
  private async notifyMentions(project: ProjectRef, commentId: string, authorId: string, already: string[], content: string, ids: string[]): Promise<void> {
    // The people named, then those of them who are members of the project.
    const named = await usersAmong(this.db, mentionedEmails(content), [...new Set(ids)]);
    const memberIds = await membersAmong(
      this.db,
      project.id,
      named.map((m) => m.id),
    );
    const members = named.filter((m) => memberIds.has(m.id));
    const fresh = members.filter((m) => m.id !== authorId && !already.includes(m.id));
    if (fresh.length === 0) return;
    const comment = (await repo.commentById(this.db, project.id, commentId))!;
    const author = (await emailsOf(this.db, [authorId])).get(authorId) ?? 'Someone';
    for (const m of fresh) {
      await this.notifications.notify(m.id, 'mention', `${author} mentioned you in a comment on camera ${comment.camera_exid}`, {
        camera_exid: comment.camera_exid,
        project_exid: project.exid,
        comment_id: commentId,
        actor_email: author,
      });
    }
    await repo.updateComment(this.db, commentId, { mentions: JSON.stringify([...already, ...fresh.map((m) => m.id)]) });
  }

  private async toComments(rows: repo.CommentRow[]): Promise<Comment[]> {
    const emails = await emailsOf(this.db, [...new Set(rows.flatMap((r) => JSON.parse(r.mentions) as string[]))]);
    return rows.map((r) => ({
      id: r.id,
      camera_exid: r.camera_exid,
      project_exid: r.project_exid,
      timestamp: r.frame_at,
      content: r.content,
      position2d: { x: Number(r.x), y: Number(r.y) },
      creator_email: r.creator_email,
      creator_name: r.creator_name,
      archived: r.archived_at !== null,
      archived_at: r.archived_at,
      mentions: (JSON.parse(r.mentions) as string[]).flatMap((id) => emails.get(id) ?? []).sort(),
      created_at: r.created_at,
      updated_at: r.updated_at,
    }));
  }
}
