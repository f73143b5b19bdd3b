// HLS playlists built from the segment index. Live: the newest segments as a rolling window.
// Playback: the stored segments from a position onward, as a finished (VOD) playlist starting at
// that position. Every segment URI carries the caller's token, so a player without headers works.
import type { Segment } from '../recordings/index.js';

export interface PlaylistOptions {
  segments: Segment[];
  /** Media sequence number of the first segment (its position among the device's segments). */
  mediaSequence: number;
  live: boolean;
  token: string;
  /** Seconds into the first segment where playback should begin (playback only). */
  startOffset?: number;
}

export function buildPlaylist(o: PlaylistOptions): string {
  const target = Math.max(1, Math.ceil(Math.max(...o.segments.map((s) => s.duration_ms / 1000), 1)));
  const lines = ['#EXTM3U', '#EXT-X-VERSION:6', `#EXT-X-TARGETDURATION:${target}`, `#EXT-X-MEDIA-SEQUENCE:${o.mediaSequence}`];
  if (!o.live) lines.push('#EXT-X-PLAYLIST-TYPE:VOD');
  if (o.startOffset !== undefined && o.startOffset > 0) lines.push(`#EXT-X-START:TIME-OFFSET=${o.startOffset.toFixed(3)},PRECISE=YES`);
  const token = encodeURIComponent(o.token);
  let previous: Segment | undefined;
  for (const s of o.segments) {
    // A new run, or a hole between segments, is a discontinuity for the player.
    if (previous && (previous.run_id !== s.run_id || Date.parse(s.start_date) - Date.parse(previous.end_date) > 1000)) lines.push('#EXT-X-DISCONTINUITY');
    lines.push(`#EXT-X-PROGRAM-DATE-TIME:${s.start_date}`);
    lines.push(`#EXTINF:${(s.duration_ms / 1000).toFixed(3)},`);
    lines.push(`segments/${s.id}.ts?token=${token}`);
    previous = s;
  }
  if (!o.live) lines.push('#EXT-X-ENDLIST');
  return lines.join('\n') + '\n';
}
