// The ffmpeg command that serves one device stream. One camera connection, one ffmpeg, up to three
// outputs through the tee muxer (so a re-encoded file source is encoded once for all of them):
// - the recording: MPEG-TS segments of about `segmentSeconds`, cut on keyframes, each finished one
//   announced on stdout;
// - the live view: an HLS playlist of short segments in its own folder, oldest deleted as it rolls;
// - WebRTC: the video as RTP (H.264 with its parameter sets before every keyframe) to a local UDP
//   port the recorder reads and fans out to viewers. The RTP muxer takes the NAL units' framing from
//   the input's stream header, so its input must frame them with start codes, as RTSP and MPEG-TS
//   do: a file's MP4 or MKV is remuxed to MPEG-TS first (see device-recorder.ts). A bitstream filter
//   here would not do: in ffmpeg 5 one applied to every output stops the outputs at the first loop
//   of a looping file, and one on the RTP output alone leaves its muxer reading the old framing.
// The live and RTP outputs may fail without stopping the recording (`onfail=ignore`). Without a
// recording (a device watched through the platform link while it does not record) only the live
// outputs are written.
import type { SourceSpec } from '../devices/index.js';

export interface StreamOutputs {
  /** The recording's segment file pattern, in the run's staging folder; none: live view only. */
  segments?: string;
  segmentSeconds: number;
  /** The live HLS output: `index.m3u8` and its segments in `dir`. */
  live?: { dir: string; segmentSeconds: number; listSize: number };
  /** Local UDP port that receives the video as RTP, for WebRTC viewers. */
  rtpPort?: number;
  /**
   * Re-encode with a keyframe every this many seconds: only for file sources whose own keyframes are
   * too far apart for short live segments (a camera's stream is always copied as it comes).
   */
  keyframeEvery?: number;
}

function withCredentials(uri: string, username?: string, password?: string): string {
  if (!username) return uri;
  const u = new URL(uri);
  u.username = encodeURIComponent(username);
  u.password = encodeURIComponent(password ?? '');
  return u.toString();
}

// The tee muxer reads its argument twice: first split into slaves at `|`, then each slave's
// `[key=value:…]` options at `:` and `]`; each reading drops one level of backslash escapes.
const escapeSlave = (v: string) => v.replace(/[\\'|]/g, (c) => `\\${c}`);
const escapeOption = (v: string) => v.replace(/[\\':\]]/g, (c) => `\\${c}`);

/** One tee slave: `[key=value:…]target`, escaped for both readings. */
function slave(options: Record<string, string>, target: string): string {
  const opts = Object.entries(options)
    .map(([k, v]) => `${k}=${escapeOption(v)}`)
    .join(':');
  return escapeSlave(`[${opts}]${target}`);
}

/** ffmpeg's input options for a device: its camera's stream, or its file played in a loop. */
export function inputArgs(src: SourceSpec): string[] {
  return src.type === 'file'
    ? // A file plays in a loop at its own pace, as if it were a live camera.
      ['-re', '-stream_loop', '-1', '-i', src.input]
    : ['-rtsp_transport', 'tcp', '-timeout', '10000000', '-i', withCredentials(src.input, src.username, src.password)];
}

export function recordArgs(src: SourceSpec, out: StreamOutputs): string[] {
  const input = inputArgs(src);
  const codec =
    out.keyframeEvery === undefined
      ? ['-c', 'copy']
      : [
          '-c:v',
          'libx264',
          '-preset',
          'ultrafast',
          '-tune',
          'zerolatency',
          '-pix_fmt',
          'yuv420p',
          '-force_key_frames',
          `expr:gte(t,n_forced*${out.keyframeEvery})`,
        ];
  const slaves: string[] = [];
  if (out.segments !== undefined) {
    slaves.push(
      slave(
        {
          f: 'segment',
          segment_time: String(out.segmentSeconds),
          segment_format: 'mpegts',
          reset_timestamps: '1',
          segment_list: 'pipe:1',
          segment_list_type: 'csv',
        },
        out.segments,
      ),
    );
  }
  if (out.live) {
    slaves.push(
      slave(
        {
          f: 'hls',
          hls_time: String(out.live.segmentSeconds),
          hls_list_size: String(out.live.listSize),
          // Segment numbers from the clock: a restarted ffmpeg never reuses a name a player has cached.
          hls_start_number_source: 'epoch',
          hls_flags: 'delete_segments+program_date_time+independent_segments+temp_file',
          hls_segment_filename: `${out.live.dir}/live-%d.ts`,
          onfail: 'ignore',
        },
        `${out.live.dir}/index.m3u8`,
      ),
    );
  }
  if (out.rtpPort !== undefined) {
    slaves.push(
      slave(
        // Parameter sets in-band before every keyframe: a WebRTC viewer may join at any keyframe.
        { f: 'rtp', 'bsfs/v': 'dump_extra', onfail: 'ignore' },
        `rtp://127.0.0.1:${out.rtpPort}?pkt_size=1200`,
      ),
    );
  }
  return ['-hide_banner', '-nostdin', '-loglevel', 'warning', ...input, '-map', '0:v:0', ...codec, '-f', 'tee', slaves.join('|')];
}

/** ffmpeg's stderr in a few words a person can act on. */
export function explainFfmpegError(line: string): string | null {
  const l = line.toLowerCase();
  if (l.includes('401 unauthorized') || l.includes('authorization failed')) return 'the camera refused the credentials (401)';
  if (l.includes('connection refused')) return 'the camera refused the connection';
  if (l.includes('no route to host') || l.includes('network is unreachable')) return 'the camera cannot be reached on the network';
  if (l.includes('connection timed out') || l.includes('operation timed out')) return 'the camera did not answer in time';
  if (l.includes('no such file or directory')) return 'the source file does not exist';
  if (l.includes('invalid data found')) return 'the source is not a video ffmpeg can read';
  if (l.includes('404 not found')) return 'the camera has no stream at that address (404)';
  if (l.includes('no space left')) return 'the storage is full';
  return null;
}
