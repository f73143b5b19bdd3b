// A project's logos (for overlays on timelapses and clips, and in clients) and its thumbnail (the
// picture project lists show), both stored as images the platform re-encoded itself. A replaced image
// gets a new object key, so a URL that named the old one never serves the new bytes from a cache.
import { Type, type Static } from 'typebox';
import type { PlatformDb } from '../database.js';
import { ApiError, validation } from '../../lib/errors.js';
import { Nullable, StringEnum } from '../../lib/http/schemas.js';
import { newId } from '../../lib/ids.js';
import type { ObjectStore } from '../storage/index.js';
import type { SnapshotReader } from '../recordings/index.js';
import type { CamerasService } from '../cameras/index.js';
import { LOGO_POSITIONS, type ProjectLogosTable, type ProjectThumbnailsTable } from '../projects/index.js';
import { decodeUpload, toLogo, toThumbnail } from './uploaded-image.js';
import * as repo from '../projects/index.js';

/** Logos a project may hold: enough for every partner on a site board. */
const MAX_LOGOS = 20;

export const Logo = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    position: StringEnum(LOGO_POSITIONS),
    content_type: Type.String(),
    width: Type.Integer(),
    height: Type.Integer(),
    size: Type.Integer({ description: 'Bytes of the stored PNG' }),
    url: Type.String({ description: 'Where the image is served (same credentials as this call)' }),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { $id: 'ProjectLogo' },
);
export type Logo = Static<typeof Logo>;

export const Thumbnail = Type.Object(
  {
    source: StringEnum(['upload', 'camera']),
    camera_exid: Nullable(Type.String()),
    taken_at: Nullable(Type.String({ description: 'Time of the recorded frame it was made from (source camera)' })),
    width: Type.Integer(),
    height: Type.Integer(),
    size: Type.Integer(),
    updated_at: Type.String(),
  },
  { $id: 'ProjectThumbnail' },
);
export type Thumbnail = Static<typeof Thumbnail>;

interface ProjectRef {
  id: string;
  exid: string;
}

type LogoPosition = (typeof LOGO_POSITIONS)[number];

export class ProjectImagesService {
  constructor(
    private readonly db: PlatformDb,
    private readonly config: { settingsImageMaxBytes: number },
    private readonly deps: { storage: ObjectStore; snapshotReader: SnapshotReader; cameras: CamerasService },
  ) {}

  private get storage(): ObjectStore {
    return this.deps.storage;
  }

  private static logo(project: ProjectRef, r: ProjectLogosTable): Logo {
    return {
      id: r.id,
      name: r.name,
      position: r.position as LogoPosition,
      content_type: r.content_type,
      width: r.width,
      height: r.height,
      size: r.size,
      url: `/v2/projects/${project.exid}/logos/${r.id}/image`,
      created_at: r.created_at,
      updated_at: r.updated_at,
    };
  }

  private async mustLogo(project: ProjectRef, id: string) {
    const row = await repo.logoById(this.db, project.id, id);
    if (!row) throw new ApiError('NOT_FOUND', 'Logo not found');
    return row;
  }

  // ---- logos

  async listLogos(project: ProjectRef): Promise<Logo[]> {
    return (await repo.logosOf(this.db, project.id)).map((r) => ProjectImagesService.logo(project, r));
  }

  async getLogo(project: ProjectRef, id: string): Promise<Logo> {
    return ProjectImagesService.logo(project, await this.mustLogo(project, id));
  }

  async createLogo(project: ProjectRef, userId: string, input: { name: string; image: string; position?: LogoPosition }): Promise<Logo> {
    const name = input.name.trim();
    if (!name) throw validation('name', 'must not be blank');
    if ((await repo.countLogos(this.db, project.id)) >= MAX_LOGOS)
      throw new ApiError('CONFLICT', `A project holds at most ${MAX_LOGOS} logos; delete one first`);
    const image = await toLogo('image', await decodeUpload('image', input.image, this.config.settingsImageMaxBytes));
    const id = newId();
    const key = `projects/${project.id}/logos/${id}-${newId()}.png`;
    await this.storage.put(key, image.bytes, image.contentType);
    const now = new Date().toISOString();
    const row: ProjectLogosTable = {
      id,
      project_id: project.id,
      name,
      position: input.position ?? 'top-right',
      object_key: key,
      content_type: image.contentType,
      width: image.width,
      height: image.height,
      size: image.bytes.length,
      created_by: userId,
      created_at: now,
      updated_at: now,
    };
    try {
      await repo.insertLogo(this.db, row);
    } catch (err) {
      await this.storage.delete([key]);
      throw err;
    }
    return ProjectImagesService.logo(project, row);
  }

  async updateLogo(project: ProjectRef, id: string, input: { name?: string; image?: string; position?: LogoPosition }): Promise<Logo> {
    const row = await this.mustLogo(project, id);
    const set: Partial<ProjectLogosTable> = { updated_at: new Date().toISOString() };
    if (input.name !== undefined) {
      set.name = input.name.trim();
      if (!set.name) throw validation('name', 'must not be blank');
    }
    if (input.position !== undefined) set.position = input.position;
    if (input.image !== undefined) {
      const image = await toLogo('image', await decodeUpload('image', input.image, this.config.settingsImageMaxBytes));
      set.object_key = `projects/${project.id}/logos/${id}-${newId()}.png`;
      await this.storage.put(set.object_key, image.bytes, image.contentType);
      Object.assign(set, { content_type: image.contentType, width: image.width, height: image.height, size: image.bytes.length });
    }
    await repo.updateLogo(this.db, id, set);
    if (set.object_key) await this.storage.delete([row.object_key]);
    return ProjectImagesService.logo(project, { ...row, ...set });
  }

  async deleteLogo(project: ProjectRef, id: string): Promise<void> {
    const row = await this.mustLogo(project, id);
    await repo.deleteLogo(this.db, id);
    await this.storage.delete([row.object_key]);
  }

  async logoImage(project: ProjectRef, id: string) {
    const row = await this.mustLogo(project, id);
    const object = await this.storage.get(row.object_key);
    if (!object) throw new ApiError('NOT_FOUND', 'The logo image is no longer stored');
    return { object, etag: `"logo-${row.object_key.split('/').pop()}"` };
  }

  // ---- thumbnail

  private async mustThumbnail(project: ProjectRef) {
    const row = await repo.thumbnailOf(this.db, project.id);
    if (!row) throw new ApiError('NOT_FOUND', 'This project has no thumbnail yet');
    return row;
  }

  async thumbnailInfo(project: ProjectRef): Promise<Thumbnail> {
    const r = await this.mustThumbnail(project);
    return {
      source: r.source as 'upload' | 'camera',
      camera_exid: r.camera_exid,
      taken_at: r.taken_at,
      width: r.width,
      height: r.height,
      size: r.size,
      updated_at: r.updated_at,
    };
  }

  async thumbnailImage(project: ProjectRef) {
    const row = await this.mustThumbnail(project);
    const object = await this.storage.get(row.object_key);
    if (!object) throw new ApiError('NOT_FOUND', 'The thumbnail image is no longer stored');
    return { object, etag: `"thumb-${row.object_key.split('/').pop()}"`, updatedAt: row.updated_at };
  }

  async uploadThumbnail(project: ProjectRef, userId: string, imageText: string): Promise<Thumbnail> {
    const bytes = await decodeUpload('image', imageText, this.config.settingsImageMaxBytes);
    return this.saveThumbnail(project, userId, bytes, { source: 'upload', camera_exid: null, taken_at: null });
  }

  /** From the camera's latest recorded frame; the camera must belong to the project. */
  async thumbnailFromCamera(project: ProjectRef, userId: string, cameraExid: string): Promise<Thumbnail> {
    const { cameras, snapshotReader } = this.deps;
    const camera = await cameras.row(cameraExid).catch(() => null);
    if (!camera || camera.project_id !== project.id) throw validation('camera_exid', 'must be a camera of this project');
    const entry = await snapshotReader.latest(cameraExid);
    const bytes = await snapshotReader.bytes(entry);
    return this.saveThumbnail(project, userId, bytes, { source: 'camera', camera_exid: cameraExid, taken_at: entry.takenAt });
  }

  private async saveThumbnail(
    project: ProjectRef,
    userId: string,
    bytes: Buffer,
    origin: { source: ProjectThumbnailsTable['source']; camera_exid: string | null; taken_at: string | null },
  ): Promise<Thumbnail> {
    const image = await toThumbnail('image', bytes);
    const previous = await repo.thumbnailOf(this.db, project.id);
    const key = `projects/${project.id}/thumbnail/${newId()}.jpg`;
    await this.storage.put(key, image.bytes, image.contentType);
    const now = new Date().toISOString();
    await repo.saveThumbnail(this.db, {
      project_id: project.id,
      object_key: key,
      ...origin,
      width: image.width,
      height: image.height,
      size: image.bytes.length,
      updated_by: userId,
      updated_at: now,
    });
    if (previous) await this.storage.delete([previous.object_key]);
    return this.thumbnailInfo(project);
  }

  async deleteThumbnail(project: ProjectRef): Promise<void> {
    const row = await this.mustThumbnail(project);
    await repo.deleteThumbnail(this.db, project.id);
    await this.storage.delete([row.object_key]);
  }

  /** The deletion hook: every stored image of the project (rows go with the project's cascade). */
  async removeProjectObjects(projectId: string): Promise<void> {
    const keys = await repo.objectKeysOf(this.db, projectId);
    if (keys.length) await this.storage.delete(keys);
  }
}
