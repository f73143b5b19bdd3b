// One device's plate reader: frames from its stream → text lines → reads that fit the plate format →
// passing vehicles (vehicle-tracker.ts) → one LPR event per vehicle, with the crop of its best read.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import type { FastifyBaseLogger } from 'fastify';
import type { LprInput } from '../events/index.js';
import type { SourceSpec } from '../devices/index.js';
import { FrameSource, type Frame } from './frame-source.js';
import { editDistance, fitToFormat, normalisePlate, type PlateReaderConfig, plateFormat, type WatchListEntry } from '../plate-settings/index.js';
import { readText } from './plate-ocr.js';
import { VehicleTracker, type PassedVehicle, type PlateRead } from './vehicle-tracker.js';

const RESTART_MS = 5_000;

/** The plate reads in one frame that fit the format and are confident enough. */
async function readsInFrame(frame: Frame, framePath: string, config: PlateReaderConfig, format: RegExp): Promise<PlateRead<Buffer>[]> {
  writeFileSync(framePath, frame.jpeg);
  const lines = await readText(framePath);
  return lines.flatMap((l) => {
    if (l.confidence < config.min_confidence) return [];
    const plate = fitToFormat(normalisePlate(l.text), format);
    return plate ? [{ plate, confidence: l.confidence, box: l.box, at: frame.at, frame: frame.jpeg }] : [];
  });
}

/** Every vehicle in a video file, read once from start to end at the configured rate (tests, benchmark). */
export async function readPlatesInFile(
  ffmpeg: string,
  file: string,
  config: PlateReaderConfig,
  workDir: string,
): Promise<{ vehicles: PassedVehicle<Buffer>[]; frames: number }> {
  mkdirSync(workDir, { recursive: true });
  const own = mkdtempSync(join(workDir, 'read-'));
  const source = new FrameSource(ffmpeg, { type: 'once', input: file }, config.fps, config.frame_width);
  const tracker = new VehicleTracker<Buffer>(config.gap_seconds * 1000);
  const format = plateFormat(config.country, config.pattern);
  const vehicles: PassedVehicle<Buffer>[] = [];
  let frames = 0;
  source.start();
  try {
    for (let f = await source.next(); f; f = await source.next()) {
      frames++;
      vehicles.push(...tracker.frame(f.at, await readsInFrame(f, join(own, 'frame.jpg'), config, format)));
    }
  } finally {
    source.stop();
    rmSync(own, { recursive: true, force: true });
  }
  if (frames === 0) throw new Error(`no frames from ${file}: ${source.stderr.trim()}`);
  vehicles.push(...tracker.flush());
  return { vehicles, frames };
}

/** The watch-list entry the plate is nearest to, within the allowed distance. */
export function watchMatch(plate: string, list: WatchListEntry[], maxDistance: number): { entry: WatchListEntry; distance: number } | null {
  let found: { entry: WatchListEntry; distance: number } | null = null;
  for (const entry of list) {
    const distance = editDistance(plate, entry.plate);
    if (distance <= maxDistance && (!found || distance < found.distance)) found = { entry, distance };
  }
  return found;
}

/** The plate's part of the frame, with a margin, as a JPEG. */
async function plateCrop(read: PlateRead<Buffer>): Promise<Buffer> {
  const meta = await sharp(read.frame).metadata();
  const [x1, y1, x2, y2] = read.box;
  const mx = Math.round((x2 - x1) * 0.15);
  const my = Math.round((y2 - y1) * 0.4);
  const left = Math.max(0, Math.floor(x1) - mx);
  const top = Math.max(0, Math.floor(y1) - my);
  const width = Math.max(1, Math.min((meta.width ?? 0) - left, Math.ceil(x2) - left + mx));
  const height = Math.max(1, Math.min((meta.height ?? 0) - top, Math.ceil(y2) - top + my));
  return sharp(read.frame).extract({ left, top, width, height }).jpeg({ quality: 90 }).toBuffer();
}

/** The LPR event for a vehicle that passed, as the recorder stores ingested ones. */
async function vehicleEvent(v: PassedVehicle<Buffer>, config: PlateReaderConfig): Promise<LprInput> {
  const match = watchMatch(v.best.plate, config.watch_list, config.watch_max_distance);
  return {
    plate_number: v.best.plate,
    capture_time: new Date(v.best.at).toISOString(),
    direction: config.direction,
    confidence: Math.min(1, Math.max(0, v.best.confidence)),
    bounding_box: [...v.best.box],
    plate_image: (await plateCrop(v.best)).toString('base64'),
    ...(match ? { list_type: match.entry.list_type } : {}),
    source: 'plate_reader',
    reads: v.reads,
    agreeing_reads: v.agreeing,
    first_seen: new Date(v.firstAt).toISOString(),
    last_seen: new Date(v.lastAt).toISOString(),
    watch_match: match ? { plate: match.entry.plate, label: match.entry.label, distance: match.distance } : null,
  };
}

export interface PlateReaderDeps {
  ffmpeg: string;
  workDir: string;
  log: FastifyBaseLogger;
  store: (deviceId: string, event: LprInput) => Promise<unknown>;
}

/** Reads a device's live stream until stopped, restarting ffmpeg when it ends. */
export class PlateReader {
  private source: FrameSource | null = null;
  private stopped = false;
  private done: Promise<void> | null = null;
  /** Ends the wait before a restart at once when the reader is stopped. */
  private wake: (() => void) | null = null;
  framesRead = 0;
  vehiclesStored = 0;

  constructor(
    readonly deviceId: string,
    private readonly src: SourceSpec,
    private readonly config: PlateReaderConfig,
    private readonly deps: PlateReaderDeps,
  ) {}

  start(): void {
    mkdirSync(this.deps.workDir, { recursive: true });
    this.done = this.run();
  }

  private async run(): Promise<void> {
    const tracker = new VehicleTracker<Buffer>(this.config.gap_seconds * 1000);
    const format = plateFormat(this.config.country, this.config.pattern);
    const framePath = join(this.deps.workDir, 'frame.jpg');
    while (!this.stopped) {
      const source = new FrameSource(this.deps.ffmpeg, this.src, this.config.fps, this.config.frame_width);
      this.source = source;
      source.start();
      for (let f = await source.next(); f && !this.stopped; f = await source.next()) {
        try {
          const reads = await readsInFrame(f, framePath, this.config, format);
          this.framesRead++;
          await this.storeAll(tracker.frame(f.at, reads));
        } catch (err) {
          this.deps.log.warn({ err, deviceId: this.deviceId }, 'plate reader: frame not read');
        }
      }
      if (this.stopped) break;
      this.deps.log.warn({ deviceId: this.deviceId, stderr: source.stderr.trim().slice(-300) }, 'plate reader: stream ended, restarting');
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        setTimeout(resolve, RESTART_MS).unref();
      });
    }
    await this.storeAll(tracker.flush());
    rmSync(this.deps.workDir, { recursive: true, force: true });
  }

  private async storeAll(vehicles: PassedVehicle<Buffer>[]): Promise<void> {
    for (const v of vehicles) {
      try {
        await this.deps.store(this.deviceId, await vehicleEvent(v, this.config));
        this.vehiclesStored++;
      } catch (err) {
        this.deps.log.warn({ err, deviceId: this.deviceId }, 'plate reader: event not stored');
      }
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.source?.stop();
    this.wake?.();
    await this.done;
  }
}
