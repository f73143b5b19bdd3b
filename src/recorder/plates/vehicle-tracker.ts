// Groups the plate reads of successive frames into passing vehicles and keeps each vehicle's best
// read: a read joins the open vehicle whose plate it is within two characters of; a vehicle has
// passed when none of its reads came for `gapMs`. Its plate is the text read most often (ties: the
// higher total confidence), shown by that text's most confident read.
import { editDistance } from '../plate-settings/index.js';

export interface PlateRead<F> {
  plate: string;
  confidence: number;
  /** [x1, y1, x2, y2] in the frame's pixels. */
  box: [number, number, number, number];
  /** Milliseconds (wall clock, or the video's own time). */
  at: number;
  frame: F;
}

export interface PassedVehicle<F> {
  best: PlateRead<F>;
  /** How many reads the vehicle got, and how many of them agree with the chosen plate. */
  reads: number;
  agreeing: number;
  firstAt: number;
  lastAt: number;
}

const SAME_VEHICLE_DISTANCE = 2;

interface Track<F> {
  reads: PlateRead<F>[];
  lastAt: number;
}

export class VehicleTracker<F> {
  private open: Track<F>[] = [];

  constructor(private readonly gapMs: number) {}

  /** Adds one frame's reads (possibly none) and returns the vehicles that have passed by `at`. */
  frame(at: number, reads: PlateRead<F>[]): PassedVehicle<F>[] {
    for (const read of reads) {
      const track = this.open.find((t) => t.reads.some((r) => editDistance(r.plate, read.plate) <= SAME_VEHICLE_DISTANCE));
      if (track) {
        track.reads.push(read);
        track.lastAt = at;
      } else this.open.push({ reads: [read], lastAt: at });
    }
    const passed = this.open.filter((t) => at - t.lastAt >= this.gapMs);
    this.open = this.open.filter((t) => !passed.includes(t));
    return passed.map(summarise);
  }

  /** Every vehicle still open, as passed (the stream stopped). */
  flush(): PassedVehicle<F>[] {
    const all = this.open.map(summarise);
    this.open = [];
    return all;
  }
}

function summarise<F>(t: Track<F>): PassedVehicle<F> {
  const byPlate = new Map<string, PlateRead<F>[]>();
  for (const r of t.reads) byPlate.set(r.plate, [...(byPlate.get(r.plate) ?? []), r]);
  const score = (rs: PlateRead<F>[]) => rs.length * 1000 + rs.reduce((s, r) => s + r.confidence, 0);
  const chosen = [...byPlate.values()].reduce((a, b) => (score(b) > score(a) ? b : a));
  const best = chosen.reduce((a, b) => (b.confidence > a.confidence ? b : a));
  return { best, reads: t.reads.length, agreeing: chosen.length, firstAt: t.reads[0]?.at ?? t.lastAt, lastAt: t.lastAt };
}
