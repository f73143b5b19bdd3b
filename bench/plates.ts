// Plate reader benchmark: frames a second one process reads (decode, detect, recognise, track) and
// the CPU each frame costs, at three frame widths, on the clean test video of six vehicles (48 frames
// at 2 fps), read as fast as it goes. CPU counts this process and its ffmpeg. From that: the share of
// one core a device takes at the default 2 frames a second. Prints a table and one JSON line.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readPlatesInFile } from '../src/recorder/plates/plate-reader.js';
import { PLATE_READER_DEFAULTS } from '../src/recorder/plate-settings/plate-reader-config.js';
import { LAYOUTS_PATTERN, LEVELS, plates, plateVideo } from '../test/recorder/plates/plate-video.js';
import { machine, TICKS_PER_S, usage } from './process-usage.js';

const VEHICLES = 6;
const WIDTHS = [320, 480, 640];

const work = mkdtempSync(join(tmpdir(), 'overlook-bench-plates-'));
const video = plateVideo(LEVELS[0] as (typeof LEVELS)[number], VEHICLES);
const want = plates(VEHICLES).map((p) => p.plate);
const rows = [];
// A first read loads the models, so that no width pays for it.
await readPlatesInFile('ffmpeg', video, { ...PLATE_READER_DEFAULTS, enabled: true, pattern: LAYOUTS_PATTERN, fps: 0.5 }, work);
for (const width of WIDTHS) {
  const before = usage(process.pid).ticks;
  const started = performance.now();
  const { vehicles, frames } = await readPlatesInFile(
    'ffmpeg',
    video,
    { ...PLATE_READER_DEFAULTS, enabled: true, pattern: LAYOUTS_PATTERN, frame_width: width },
    work,
  );
  const wallS = (performance.now() - started) / 1000;
  const cpuMs = ((usage(process.pid).ticks - before) / TICKS_PER_S) * 1000;
  const exact = want.filter((p) => vehicles.some((v) => v.best.plate === p)).length;
  rows.push({
    frame_width: width,
    frames,
    frames_per_s: Number((frames / wallS).toFixed(2)),
    cpu_ms_per_frame: Math.round(cpuMs / frames),
    core_share_at_2fps: Number(((2 * cpuMs) / frames / 1000).toFixed(2)),
    vehicles: vehicles.length,
    exact,
  });
}
rmSync(work, { recursive: true, force: true });
console.log(`machine: ${machine()}`);
console.table(rows);
console.log(JSON.stringify({ bench: 'plates', machine: machine(), rows }));
