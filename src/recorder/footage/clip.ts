// What footage export hands to the senders: a clip planned from recorded segments.
/** A clip ready to be written: ffmpeg's concat list and arguments, and what the headers tell. */
export interface Clip {
  /** The true start: the keyframe the clip begins on. */
  start: Date;
  /** Recorded seconds missing inside the range (gaps between segments). */
  gapSeconds: number;
  /** The concat list, given to ffmpeg on its stdin. */
  list: string;
  /** ffmpeg's arguments, writing the MP4 to `output` (`pipe:1`, or `pipe:3` for a handed-over socket). */
  args(output: string): string[];
}
