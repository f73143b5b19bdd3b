// The ffmpeg commands behind live view: a real camera's RTSP stream repackaged as HLS (video copied
// when it is H.264, encoded to H.264 otherwise), or the simulated camera's stream: the same scene as its
// snapshots, rendered by the app and piped into ffmpeg as JPEG frames.

/** Segment length in seconds: short, so a viewer sees the picture within a few seconds. */
const HLS_SEGMENT_SECONDS = 2;
/** Segments kept in the live playlist (older ones are deleted by ffmpeg). */
const HLS_LIST_SIZE = 6;
export const PLAYLIST_FILE = 'live.m3u8';
const SEGMENT_PATTERN = 'seg_%06d.ts';
/** What a segment ffmpeg writes is called: anything else is refused before the disk is touched. */
export const SEGMENT_NAME = /^seg_\d{6,9}\.ts$/;

/** What the simulated camera makes (the same size as its snapshots). */
export const SIMULATED_STREAM = { codec: 'h264', profile: 'Main', width: 640, height: 360, fps: 15 } as const;

export type RtspTransport = 'tcp' | 'udp';

/** The RTSP URL with the credentials in it, for ffmpeg's command line only: never logged or returned. */
export function withCredentials(url: string, username?: string, password?: string): string {
  if (!username) return url;
  const u = new URL(url);
  u.username = encodeURIComponent(username);
  u.password = encodeURIComponent(password ?? '');
  return u.toString();
}

const hlsOutput = (): string[] => [
  '-f',
  'hls',
  '-hls_time',
  String(HLS_SEGMENT_SECONDS),
  '-hls_list_size',
  String(HLS_LIST_SIZE),
  // temp_file: the playlist is renamed into place, so a reader never sees half of one.
  '-hls_flags',
  'delete_segments+temp_file+independent_segments',
  '-hls_segment_filename',
  SEGMENT_PATTERN,
  PLAYLIST_FILE,
];

/** Low-latency H.264 that every HLS player decodes, with a keyframe at every segment boundary. */
const x264 = (fps: number): string[] => [
  '-c:v',
  'libx264',
  '-preset',
  'veryfast',
  '-tune',
  'zerolatency',
  '-profile:v',
  'main',
  '-pix_fmt',
  'yuv420p',
  '-g',
  String(fps * HLS_SEGMENT_SECONDS),
  '-keyint_min',
  String(fps * HLS_SEGMENT_SECONDS),
  '-sc_threshold',
  '0',
  '-b:v',
  '800k',
];

/**
 * A real camera. `copy`: the camera's H.264 goes into the segments untouched (no re-encoding, so no
 * CPU and no quality loss); otherwise it is encoded to H.264. Only the first video stream is kept.
 * Paths are relative: ffmpeg runs inside the stream's own folder.
 */
export function rtspHlsArgs(url: string, transport: RtspTransport, copy: boolean): string[] {
  return [
    '-hide_banner',
    '-nostdin',
    '-loglevel',
    'warning',
    '-rtsp_transport',
    transport,
    '-timeout',
    '10000000',
    '-i',
    url,
    '-map',
    '0:v:0',
    '-an',
    ...(copy ? ['-c:v', 'copy'] : [...x264(SIMULATED_STREAM.fps), '-r', String(SIMULATED_STREAM.fps)]),
    ...hlsOutput(),
  ];
}

/** Frames a second the simulated camera's scene is piped in at (ffmpeg repeats them up to the stream's rate). */
export const SIMULATED_INPUT_FPS = 5;

/**
 * The simulated camera's stream: JPEG frames of its scene on stdin (the app renders them as it renders
 * its snapshots, so the live picture follows PTZ moves), encoded to the stream's size and rate.
 */
export function simulatedHlsArgs(): string[] {
  const { width, height, fps } = SIMULATED_STREAM;
  return [
    '-hide_banner',
    '-nostdin',
    '-loglevel',
    'warning',
    '-f',
    'image2pipe',
    '-framerate',
    String(SIMULATED_INPUT_FPS),
    '-c:v',
    'mjpeg',
    '-i',
    'pipe:0',
    '-vf',
    `scale=${width}:${height},fps=${fps}`,
    ...x264(fps),
    ...hlsOutput(),
  ];
}

/** ffmpeg's stderr in a few words a person can act on (never echoing the URL, which may hold credentials). */
export function explainFfmpegError(line: string): string | null {
  const l = line.toLowerCase();
  if (l.includes('401 unauthorized') || l.includes('authorization failed')) return 'the camera refused the credentials (401)';
  if (l.includes('404 not found')) return 'the camera has no stream at that address (404)';
  if (l.includes('connection refused')) return 'the camera refused the connection';
  if (l.includes('no route to host') || l.includes('network is unreachable')) return 'the camera cannot be reached on the network';
  if (l.includes('timed out')) return 'the camera did not answer in time';
  if (l.includes('invalid data found')) return 'the camera sent no video ffmpeg can read';
  if (l.includes('400 bad request') || l.includes('461 unsupported transport')) return 'the camera refused the RTSP request';
  return null;
}
