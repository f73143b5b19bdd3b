// The durable outbox of what the recorder owes its platform: cloud frames (a JPEG file in the outbox
// folder and a row) and device events (a row, and a JPEG file when a plate read has its crop). Rows are
// numbered by `seq`, never reused, sent oldest first and deleted when the platform acknowledges them. A
// file is written before its row, so a crash leaves at most a file without a row, which `clean` removes
// at start; a frame whose file is gone is dropped too (an event goes without its image). Beyond the byte cap the oldest are dropped, each with a log line.
import { mkdirSync, readdirSync } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { RecorderDb } from '../db/recorder-db.js';
import type { LinkOutboxTable } from '../db/schema.js';

export interface OutboxItem {
  seq: number;
  deviceId: string;
  /** `frame` for a cloud frame, otherwise the event's kind. */
  kind: string;
  takenAt: string;
  /** A frame's JPEG, or an event's image. */
  jpeg: Buffer | null;
  /** An event's data. */
  data: Record<string, unknown> | null;
}

type Row = Omit<LinkOutboxTable, 'seq'> & { seq: number };

export class Outbox {
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly db: RecorderDb,
    /** Holds the frames' JPEG files. */
    private readonly dir: string,
    private readonly capBytes: number,
    private readonly log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void },
  ) {
    mkdirSync(dir, { recursive: true });
  }

  /** Called after anything is added. */
  onAdded(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async addFrame(deviceId: string, takenAt: Date, jpeg: Buffer): Promise<number> {
    const file = await this.writeJpeg(jpeg);
    return this.insert({ device_id: deviceId, kind: 'frame', taken_at: takenAt.toISOString(), file, data: null, size: jpeg.length });
  }

  /** An event, with its image (a plate read's crop) when it has one. */
  async addEvent(deviceId: string, kind: string, at: string, data: Record<string, unknown>, image: Buffer | null = null): Promise<number> {
    const json = JSON.stringify(data);
    const file = image ? await this.writeJpeg(image) : null;
    return this.insert({ device_id: deviceId, kind, taken_at: at, file, data: json, size: Buffer.byteLength(json) + (image?.length ?? 0) });
  }

  private async writeJpeg(jpeg: Buffer): Promise<string> {
    const file = `${randomUUID()}.jpg`;
    await writeFile(join(this.dir, `${file}.tmp`), jpeg);
    await rename(join(this.dir, `${file}.tmp`), join(this.dir, file));
    return file;
  }

  private async insert(row: Omit<LinkOutboxTable, 'seq'>): Promise<number> {
    const { seq } = await this.db.kysely.insertInto('link_outbox').values(row).returning('seq').executeTakeFirstOrThrow();
    await this.enforceCap();
    for (const l of this.listeners) l();
    return seq;
  }

  private async enforceCap(): Promise<void> {
    let { bytes } = await this.size();
    while (bytes > this.capBytes) {
      const oldest = (await this.db.kysely.selectFrom('link_outbox').selectAll().orderBy('seq').limit(50).execute()) as Row[];
      if (oldest.length === 0) return;
      for (const row of oldest) {
        if (bytes <= this.capBytes) break;
        await this.remove(row);
        bytes -= row.size;
        this.log.warn(
          { seq: row.seq, device_id: row.device_id, kind: row.kind, taken_at: row.taken_at },
          'platform link backlog over its cap: dropped the oldest item',
        );
      }
    }
  }

  private async remove(row: Row): Promise<void> {
    await this.db.kysely.deleteFrom('link_outbox').where('seq', '=', row.seq).execute();
    if (row.file) await rm(join(this.dir, row.file), { force: true });
  }

  async size(): Promise<{ items: number; bytes: number }> {
    const r = await this.db.kysely
      .selectFrom('link_outbox')
      .select((eb) => [eb.fn.countAll<number>().as('items'), eb.fn.coalesce(eb.fn.sum<number>('size'), eb.lit(0)).as('bytes')])
      .executeTakeFirstOrThrow();
    return { items: Number(r.items), bytes: Number(r.bytes) };
  }

  /** The oldest items after `seq`, with their payloads. */
  async after(seq: number, limit: number): Promise<OutboxItem[]> {
    const rows = (await this.db.kysely.selectFrom('link_outbox').selectAll().where('seq', '>', seq).orderBy('seq').limit(limit).execute()) as Row[];
    const items: OutboxItem[] = [];
    for (const r of rows) {
      let jpeg: Buffer | null = null;
      if (r.file) {
        jpeg = await readFile(join(this.dir, r.file)).catch(() => null);
        if (!jpeg && r.kind !== 'frame') this.log.warn({ seq: r.seq }, 'platform link: an event’s image is missing; sent without it');
        else if (!jpeg) {
          this.log.warn({ seq: r.seq }, 'platform link: a frame’s file is missing; dropped');
          await this.remove(r);
          continue;
        }
      }
      items.push({
        seq: r.seq,
        deviceId: r.device_id,
        kind: r.kind,
        takenAt: r.taken_at,
        jpeg,
        data: r.data === null ? null : (JSON.parse(r.data) as Record<string, unknown>),
      });
    }
    return items;
  }

  /** The platform has stored everything up to and including `seq`. */
  async ackUpTo(seq: number): Promise<void> {
    const rows = (await this.db.kysely.selectFrom('link_outbox').selectAll().where('seq', '<=', seq).execute()) as Row[];
    for (const r of rows) await this.remove(r);
  }

  /** Forgets everything owed (the link is gone). */
  async clear(): Promise<void> {
    await this.db.kysely.deleteFrom('link_outbox').execute();
    await this.clean();
  }

  /** At start: removes files no row names (a crash between writing a frame and its row). */
  async clean(): Promise<number> {
    const named = new Set((await this.db.kysely.selectFrom('link_outbox').select('file').where('file', 'is not', null).execute()).map((r) => r.file));
    let removed = 0;
    for (const f of readdirSync(this.dir)) {
      if (named.has(f)) continue;
      await rm(join(this.dir, f), { force: true });
      removed++;
    }
    return removed;
  }
}
