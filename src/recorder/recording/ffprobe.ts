// Small ffprobe questions the recorder asks of stored segments and source files.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface Probe {
  ffprobe: string;
}

/** Duration in seconds of a media file, or null when ffprobe cannot read one (empty or broken file). */
export async function probeDuration(p: Probe, file: string): Promise<number | null> {
  try {
    const { stdout } = await run(p.ffprobe, ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file], { timeout: 15_000 });
    const d = Number.parseFloat(stdout.trim());
    return Number.isFinite(d) && d > 0 ? d : null;
  } catch {
    return null;
  }
}

/** Times (seconds from the file's first frame) of its video keyframes. */
export async function keyframeTimes(p: Probe, file: string): Promise<number[]> {
  return (await keyframes(p, file)).relative;
}

/**
 * Keyframe times relative to the first frame, and that first frame's own timestamp: MPEG-TS files
 * do not start at zero, and ffmpeg's concat `inpoint` is given in the file's timestamps.
 * Read from the packets' key flags, so nothing is decoded; `upTo` (seconds from the first frame)
 * stops the read there, for callers that only need the keyframes before a point.
 */
async function keyframes(p: Probe, file: string, upTo?: number): Promise<{ first: number; relative: number[] }> {
  const window = upTo === undefined ? [] : ['-read_intervals', `%+${(upTo + 1).toFixed(3)}`];
  const { stdout } = await run(
    p.ffprobe,
    ['-v', 'error', '-select_streams', 'v:0', ...window, '-show_entries', 'packet=pts_time,flags', '-of', 'csv=p=0', file],
    { timeout: 30_000, maxBuffer: 32 * 1024 * 1024 },
  );
  const times = stdout
    .split('\n')
    .map((l) => l.split(','))
    .filter(([, flags]) => flags?.startsWith('K'))
    .map(([pts]) => Number.parseFloat(pts ?? ''))
    .filter((t) => Number.isFinite(t));
  if (times.length === 0) return { first: 0, relative: [] };
  const first = times[0]!;
  return { first, relative: times.map((t) => t - first) };
}

/**
 * What the recorder needs to know of a `file` source before it plays it, in one ffprobe run (each run
 * costs a process start, and a device's first live picture waits for it): the container, the video
 * codec, and the longest keyframe gap in the first `window` seconds (null: fewer than two keyframes).
 */
export async function probeFileSource(
  p: Probe,
  file: string,
  window = 12,
): Promise<{ format: string | null; codec: string | null; longestKeyframeGap: number | null }> {
  try {
    const { stdout } = await run(
      p.ffprobe,
      [
        ...['-v', 'error', '-select_streams', 'v:0', '-read_intervals', `%+${window + 1}`],
        ...['-show_entries', 'packet=pts_time,flags:stream=codec_name:format=format_name', '-of', 'json', file],
      ],
      { timeout: 30_000, maxBuffer: 32 * 1024 * 1024 },
    );
    const out = JSON.parse(stdout) as {
      packets?: { pts_time?: string; flags?: string }[];
      streams?: { codec_name?: string }[];
      format?: { format_name?: string };
    };
    const keys = (out.packets ?? [])
      .filter((k) => k.flags?.startsWith('K'))
      .map((k) => Number.parseFloat(k.pts_time ?? ''))
      .filter((t) => Number.isFinite(t));
    let gap: number | null = null;
    for (let i = 1; i < keys.length; i++) gap = Math.max(gap ?? 0, keys[i]! - keys[i - 1]!);
    return { format: out.format?.format_name ?? null, codec: out.streams?.[0]?.codec_name ?? null, longestKeyframeGap: gap };
  } catch {
    return { format: null, codec: null, longestKeyframeGap: null };
  }
}
