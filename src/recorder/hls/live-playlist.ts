// The live HLS playlist: the one the device's ffmpeg keeps in its live folder (short segments,
// rolling, oldest deleted), passed on with every segment URI pointing at the recorder's segment route
// and carrying the caller's token. Independent of the recording's segment length.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** Target live segment length (s). Segments are cut on keyframes, so a camera's GOP can make them longer. */
export const LIVE_SEGMENT_SECONDS = 1;
/** A live segment file name, as ffmpeg writes it (numbered from the clock, never reused). */
export const LIVE_SEGMENT = /^live-[0-9]{1,20}\.ts$/;
/** A playlist not rewritten for this long belongs to an ffmpeg that hangs: no live picture. */
export const LIVE_STALE_MS = 15_000;

/** The live playlist with token-carrying URIs, or null when the device has no live picture now. */
export async function livePlaylist(dir: string, token: string): Promise<string | null> {
  const t = encodeURIComponent(token);
  return livePlaylistWith(dir, (name) => `segments/${name}?token=${t}`);
}

/** The live playlist with each segment named by `uri(name)`, or null when the device has no live picture now. */
export async function livePlaylistWith(dir: string, uri: (segment: string) => string): Promise<string | null> {
  const file = join(dir, 'index.m3u8');
  let text: string;
  try {
    if (Date.now() - (await stat(file)).mtimeMs > LIVE_STALE_MS) return null;
    text = await readFile(file, 'utf8');
  } catch {
    return null;
  }
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    // A stopping ffmpeg ends its playlist; to the viewer the live view never ends (it comes back).
    .filter((l) => l !== '' && l !== '#EXT-X-ENDLIST')
    .map((l) => (l.startsWith('#') ? l : LIVE_SEGMENT.test(l) ? uri(l) : null));
  if (lines.includes(null) || !lines.some((l) => l !== null && !l.startsWith('#'))) return null;
  return `${lines.join('\n')}\n`;
}
