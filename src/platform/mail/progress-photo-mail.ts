// A progress-photo e-mail (docs/email.md, Progress photos): the schedule's cameras, each with its latest
// recorded frame inlined (attached, shown by `cid:`), at the moment it was due in the project's time zone.
import type { PlatformDb } from '../database.js';
import { cameraRefByExid } from '../cameras/index.js';
import { progressPhotoById } from '../progress-photos/index.js';
import { projectRowById } from '../projects/index.js';
import type { SnapshotReader } from '../recordings/index.js';

export interface ComposedProgressPhoto {
  projectExid: string;
  message: { title: string; project: string; localTime: string; pictures: { caption: string; cid?: string }[] };
  images: { filename: string; cid: string; content: Buffer }[];
}

/** How the moment reads in the project's zone: "Mon 30 Nov 2026, 09:00". */
function localTime(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso));
}

export class ProgressPhotoMail {
  constructor(
    private readonly db: PlatformDb,
    private readonly frames: Pick<SnapshotReader, 'latest' | 'bytes'>,
  ) {}

  async recipientsOf(id: string): Promise<string[]> {
    const row = await progressPhotoById(this.db, id);
    return row ? (JSON.parse(row.recipients) as string[]) : [];
  }

  /** The message for the schedule, or null when it was deleted meanwhile. */
  async compose(id: string, slot: string): Promise<ComposedProgressPhoto | null> {
    const row = await progressPhotoById(this.db, id);
    const project = row && (await projectRowById(this.db, row.project_id));
    if (!row || !project) return null;
    const pictures: ComposedProgressPhoto['message']['pictures'] = [];
    const images: ComposedProgressPhoto['images'] = [];
    for (const [i, exid] of (JSON.parse(row.camera_exids) as string[]).entries()) {
      const camera = await cameraRefByExid(this.db, exid);
      if (!camera || camera.project_id !== row.project_id) continue;
      const frame = await this.frames.latest(exid).catch(() => null);
      if (!frame) {
        pictures.push({ caption: `${camera.name}: no picture recorded yet` });
        continue;
      }
      const cid = `camera-${i}@overlook`;
      images.push({ filename: `${camera.exid}.jpg`, cid, content: await this.frames.bytes(frame) });
      pictures.push({ caption: `${camera.name}, ${localTime(frame.takenAt, project.timezone)}`, cid });
    }
    return { projectExid: project.exid, message: { title: row.title, project: project.name, localTime: localTime(slot, project.timezone), pictures }, images };
  }
}
