// The stream manager on its own, with real ffmpeg: a copy that fails falls back to the next way of
// making the stream; a source that never works answers 502 with ffmpeg's reason; closing stops all.
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { LiveStreams } from '../../../src/platform/live-view/live-streams.js';
import { ApiError } from '../../../src/lib/errors.js';
import { pictureSpec, processesWith, scratchDir } from './media-helpers.js';

const scratch = scratchDir();
const quiet = { warn() {}, info() {} } as unknown as FastifyBaseLogger;
afterAll(() => scratch.remove());

describe('LiveStreams', () => {
  it('keeps its folder private, also one an older version left open', async () => {
    const root = join(scratch.dir, 'private');
    mkdirSync(root, { mode: 0o755 });
    const streams = new LiveStreams(root, 'ffmpeg', 60_000, quiet, { perNode: 1, perPerson: 1 });
    streams.start();
    expect(statSync(root).mode & 0o777).toBe(0o700);
    await streams.close();
  });

  it('falls back when the first way fails, reports a source that never works, and stops everything on close', async () => {
    const root = join(scratch.dir, 'live');
    const streams = new LiveStreams(root, 'ffmpeg', 60_000, quiet, { perNode: 10, perPerson: 10 });
    streams.start();
    const broken = {
      mode: 'copy' as const,
      args: ['-hide_banner', '-nostdin', '-loglevel', 'error', '-i', 'no-such-input.mp4', '-c', 'copy', '-f', 'hls', 'live.m3u8'],
    };
    const working = pictureSpec();

    const stream = await streams.open('cam-a', async () => [broken, working], 'person-1');
    expect(stream.spec.mode).toBe('encode');
    expect(streams.status('cam-a')).toMatchObject({ running: true, mode: 'encode' });
    // The failed attempt left no folder behind.
    expect(readdirSync(root)).toEqual([stream.dir.split('/').pop()]);

    const failure = await streams.open('cam-b', async () => [broken], 'person-1').catch((e) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).code).toBe('BAD_GATEWAY');
    expect((failure as ApiError).message).toContain('could not start');

    // Two viewers at once get the same stream.
    const [x, y] = await Promise.all([streams.open('cam-c', async () => [working], 'person-1'), streams.open('cam-c', async () => [working], 'person-1')]);
    expect(x).toBe(y);

    await streams.close();
    expect(existsSync(stream.dir) || existsSync(x.dir)).toBe(false);
    expect(processesWith('live.m3u8', root)).toEqual([]);
    await expect(streams.open('cam-d', async () => [working], 'person-1')).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });

  it('caps the streams a node runs and the streams one person starts; watching a running stream is never refused', async () => {
    const root = join(scratch.dir, 'capped');
    const streams = new LiveStreams(root, 'ffmpeg', 60_000, quiet, { perNode: 2, perPerson: 1 });
    streams.start();
    const spec = async () => [pictureSpec()];
    try {
      await streams.open('cam-1', spec, 'ann');
      await expect(streams.open('cam-2', spec, 'ann')).rejects.toMatchObject({ code: 'TOO_MANY_REQUESTS', headers: { 'retry-after': expect.any(String) } });
      await streams.open('cam-2', spec, 'bob');
      await expect(streams.open('cam-3', spec, 'cy')).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', headers: { 'retry-after': expect.any(String) } });
      // Ann watches Bob's stream: no new ffmpeg, no refusal.
      expect((await streams.open('cam-2', spec, 'ann')).spec.mode).toBe('encode');
      // When Ann's stream stops, she may start another.
      await streams.stop('cam-1');
      await streams.stop('cam-2');
      await streams.open('cam-3', spec, 'ann');
      expect(processesWith('live.m3u8', root)).toHaveLength(1);
    } finally {
      await streams.close();
    }
  });
});
