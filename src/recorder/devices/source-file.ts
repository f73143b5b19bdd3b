// What a `file` device may play: a video file inside the media folder (OVERLOOK_RECORDER_MEDIA_DIR),
// and nothing else on the machine. Paths are resolved with symlinks followed, so a link out of the
// folder is refused like any path outside it, and that answer is the same whether the file exists or
// not: the API is no way to learn what lies elsewhere on the disk (docs/recorder.md, Hardening).
import { execFile } from 'node:child_process';
import { realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { validation } from '../../lib/errors.js';

const run = promisify(execFile);
const FIELD = 'stream_config.path';

const inside = (root: string, p: string) => {
  const rel = relative(root, p);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
};

/** The real path of `p`, or of its nearest existing ancestor joined with the rest (for a missing file). */
function realOrNearest(p: string): { real: string; exists: boolean } {
  try {
    return { real: realpathSync(p), exists: true };
  } catch {
    const parent = dirname(p);
    if (parent === p) return { real: p, exists: false };
    const up = realOrNearest(parent);
    return { real: resolve(up.real, relative(parent, p)), exists: false };
  }
}

/** Where `path` really leads when that is inside the media folder (the file may be missing), else null. */
export function confined(mediaDir: string, path: string): string | null {
  if (!isAbsolute(path)) return null;
  const real = realOrNearest(path).real;
  return inside(realOrNearest(mediaDir).real, real) ? real : null;
}

/** The file's real path when it is inside the media folder; a 400 naming the field otherwise. */
export function mediaFile(mediaDir: string, path: string): string {
  if (!isAbsolute(path)) throw validation(FIELD, `must be an absolute path inside the media folder ${mediaDir}`);
  const root = realOrNearest(mediaDir).real;
  const outside = () => validation(FIELD, `must be a file inside the media folder ${mediaDir}`);
  if (!inside(root, resolve(path)) && !inside(mediaDir, resolve(path))) throw outside();
  const { real, exists } = realOrNearest(path);
  if (!inside(root, real)) throw outside();
  if (!exists) throw validation(FIELD, 'no such file in the media folder');
  if (!statSync(real).isFile()) throw validation(FIELD, 'is not a file');
  return real;
}

interface ProbeResult {
  streams?: { codec_name?: string; disposition?: { attached_pic?: number } }[];
  format?: { format_name?: string; duration?: string };
}

/**
 * Null when ffprobe finds a moving picture in the file; otherwise why not. A still image is a video
 * stream to ffprobe (format `image2` or `*_pipe`, or an album cover in an audio file): refused too,
 * as it cannot be recorded as a camera would be.
 */
export async function whyNotVideo(ffprobe: string, file: string): Promise<string | null> {
  let probe: ProbeResult;
  try {
    const { stdout } = await run(
      ffprobe,
      ['-v', 'error', '-select_streams', 'v', '-show_entries', 'format=format_name,duration:stream=codec_name,disposition', '-of', 'json', file],
      { timeout: 15_000, maxBuffer: 4 * 1024 * 1024 },
    );
    probe = JSON.parse(stdout) as ProbeResult;
  } catch {
    return 'ffprobe cannot read that file as media';
  }
  const video = (probe.streams ?? []).filter((s) => !s.disposition?.attached_pic);
  if (video.length === 0) return 'ffprobe finds no video stream in that file';
  const format = probe.format?.format_name ?? '';
  const duration = Number.parseFloat(probe.format?.duration ?? '');
  if (format === 'image2' || format.endsWith('_pipe') || !(duration > 0.2)) return 'that file is a still image, not a video';
  return null;
}
