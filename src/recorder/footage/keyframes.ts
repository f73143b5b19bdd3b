// The keyframes a clip may start on, with both of their timestamps. ffmpeg's concat demuxer seeks an
// `inpoint` by decoding time (DTS): given a keyframe's presentation time (PTS), which is later than its
// DTS when the stream has B-frames, it skips that keyframe's whole group of pictures and the clip
// comes out short. So the in-point is the DTS, while the clip's true start is told from the PTS.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface Keyframe {
  /** Seconds after the file's first keyframe (its presentation time, the segment's start). */
  offset: number;
  /** The keyframe's decoding time in the file's own timestamps: the concat `inpoint`. */
  dts: number;
}

/** The file's video keyframes up to `upTo` seconds after its first frame. */
export async function clipKeyframes(ffprobe: string, file: string, upTo: number): Promise<Keyframe[]> {
  const { stdout } = await run(
    ffprobe,
    [
      ...['-v', 'error', '-select_streams', 'v:0', '-read_intervals', `%+${(upTo + 1).toFixed(3)}`],
      ...['-show_entries', 'packet=pts_time,dts_time,flags', '-of', 'csv=p=0', file],
    ],
    { timeout: 30_000, maxBuffer: 32 * 1024 * 1024 },
  );
  const found = stdout
    .split('\n')
    .map((l) => l.split(','))
    .filter(([, , flags]) => flags?.startsWith('K'))
    .map(([pts, dts]) => ({ pts: Number.parseFloat(pts ?? ''), dts: Number.parseFloat(dts ?? '') }))
    .filter((k) => Number.isFinite(k.pts));
  const first = found[0]?.pts ?? 0;
  return found.map((k) => ({ offset: k.pts - first, dts: Number.isFinite(k.dts) ? k.dts : k.pts }));
}
