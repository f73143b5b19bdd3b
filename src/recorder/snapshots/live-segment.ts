// The newest segment of a device's live HLS output (docs/recorder.md, Live view) and its wall-clock
// start, read from the playlist ffmpeg keeps: a live snapshot does not wait for the first recording
// segment, which may be a minute away.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { LIVE_SEGMENT, LIVE_STALE_MS } from '../hls/index.js';

const PDT = '#EXT-X-PROGRAM-DATE-TIME:';
const EXTINF = '#EXTINF:';

export interface LiveSegment {
  file: string;
  /** The time of its first frame (`#EXT-X-PROGRAM-DATE-TIME`). */
  at: Date;
}

/** The newest listed live segment, or null when the device has no live picture now (no playlist, or a stale one). */
export async function newestLiveSegment(dir: string): Promise<LiveSegment | null> {
  const playlist = join(dir, 'index.m3u8');
  let text: string;
  try {
    if (Date.now() - (await stat(playlist)).mtimeMs > LIVE_STALE_MS) return null;
    text = await readFile(playlist, 'utf8');
  } catch {
    return null;
  }
  // ffmpeg dates every segment; a segment without its own date follows the previous one by its duration.
  let at = Number.NaN;
  let duration = 0;
  let newest: LiveSegment | null = null;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith(PDT)) at = Date.parse(line.slice(PDT.length));
    else if (line.startsWith(EXTINF)) duration = Number.parseFloat(line.slice(EXTINF.length));
    else if (LIVE_SEGMENT.test(line)) {
      if (Number.isFinite(at)) newest = { file: join(dir, line), at: new Date(at) };
      at += Number.isFinite(duration) ? duration * 1000 : Number.NaN;
    }
  }
  return newest;
}
