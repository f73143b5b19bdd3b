// The ffmpeg command that records one device stream: video copied as it comes (no transcoding) into
// MPEG-TS segments of about `segmentSeconds`, cut on keyframes, each finished one announced on stdout.
export interface SourceSpec {
  type: 'ip' | 'file';
  /** RTSP URI (ip) or a local video file (file). */
  input: string;
  username?: string;
  password?: string;
}

export function withCredentials(uri: string, username?: string, password?: string): string {
  if (!username) return uri;
  const u = new URL(uri);
  u.username = encodeURIComponent(username);
  u.password = encodeURIComponent(password ?? '');
  return u.toString();
}

export function recordArgs(src: SourceSpec, segmentSeconds: number, outPattern: string): string[] {
  const input =
    src.type === 'file'
      ? // A file plays in a loop at its own pace, as if it were a live camera.
        ['-re', '-stream_loop', '-1', '-i', src.input]
      : ['-rtsp_transport', 'tcp', '-timeout', '10000000', '-i', withCredentials(src.input, src.username, src.password)];
  return [
    '-hide_banner',
    '-nostdin',
    '-loglevel',
    'warning',
    ...input,
    '-map',
    '0:v:0',
    '-c',
    'copy',
    '-f',
    'segment',
    '-segment_time',
    String(segmentSeconds),
    '-segment_format',
    'mpegts',
    '-reset_timestamps',
    '1',
    '-segment_list',
    'pipe:1',
    '-segment_list_type',
    'csv',
    outPattern,
  ];
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
