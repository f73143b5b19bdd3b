// The small pure pieces of live view: credential masking in ffmpeg's log lines, token URIs in
// playlists, segment names, codec strings.
import { describe, expect, it } from 'vitest';
import { SEGMENT_NAME, withCredentials } from '../../../src/platform/live-view/ffmpeg-args.js';
import { redact } from '../../../src/platform/live-view/hls-stream.js';
import { avcCodecs, withTokens } from '../../../src/platform/live-view/playlists.js';

describe('live view pieces', () => {
  it('masks credentials in any URL ffmpeg prints', () => {
    const url = withCredentials('rtsp://cam.local:554/stream1', 'admin', 'p@ss:w/rd');
    expect(url).toBe('rtsp://admin:p%40ss%3Aw%2Frd@cam.local:554/stream1');
    expect(redact(`[rtsp @ 0x1] method DESCRIBE failed: 401 Unauthorized ${url}: Connection refused`)).toBe(
      '[rtsp @ 0x1] method DESCRIBE failed: 401 Unauthorized rtsp://***@cam.local:554/stream1: Connection refused',
    );
    expect(withCredentials('rtsp://cam.local/s')).toBe('rtsp://cam.local/s');
  });

  it('puts the token on every URI line and nowhere else', () => {
    const playlist = '#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\nseg_000001.ts\n\n#EXTINF:2.0,\nseg_000002.ts?x=1\n';
    expect(withTokens(playlist, 'a.b+c')).toBe(
      '#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\nseg_000001.ts?token=a.b%2Bc\n\n#EXTINF:2.0,\nseg_000002.ts?x=1&token=a.b%2Bc\n',
    );
  });

  it('accepts only the segment names ffmpeg writes', () => {
    for (const ok of ['seg_000000.ts', 'seg_123456789.ts']) expect(SEGMENT_NAME.test(ok), ok).toBe(true);
    for (const bad of ['../seg_000001.ts', 'seg_000001.ts/..', 'seg_1.ts', 'live.m3u8', 'seg_000001.ts\n', 'SEG_000001.ts', 'seg_0000001234567890.ts'])
      expect(SEGMENT_NAME.test(bad), bad).toBe(false);
  });

  it('names the H.264 profiles in RFC 6381 form', () => {
    expect(avcCodecs('High')).toBe('avc1.640028');
    expect(avcCodecs('Main')).toBe('avc1.4d0028');
    expect(avcCodecs('Constrained Baseline')).toBe('avc1.42e028');
    expect(avcCodecs('High 4:4:4 Predictive')).toBeNull();
    expect(avcCodecs(null)).toBeNull();
  });
});
