// What the main API's /metrics reads of the live streams (docs/deploy.md, Metrics): the streams running on
// this node and their viewers, with real ffmpeg.
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { LiveStreams } from '../../../src/platform/live-view/live-streams.js';
import { pictureSpec, scratchDir } from './media-helpers.js';

const scratch = scratchDir();
const quiet = { warn() {}, info() {} } as unknown as FastifyBaseLogger;
afterAll(() => scratch.remove());

describe('LiveStreams.counts', () => {
  it('counts the running streams and their distinct viewers, and nothing once stopped', async () => {
    const streams = new LiveStreams(join(scratch.dir, 'counts'), 'ffmpeg', 60_000, quiet, { perNode: 4, perPerson: 4 });
    streams.start();
    const spec = async () => [pictureSpec()];
    try {
      expect(streams.counts()).toEqual({ running: 0, starting: 0, viewers: 0 });
      const opening = streams.open('cam-1', spec, 'ann');
      expect(streams.counts().starting).toBe(1);
      const stream = await opening;
      stream.touch('ann');
      stream.touch('bob');
      stream.touch('ann');
      expect(streams.counts()).toEqual({ running: 1, starting: 0, viewers: 2 });
      await streams.stop('cam-1');
      expect(streams.counts()).toEqual({ running: 0, starting: 0, viewers: 0 });
    } finally {
      await streams.close();
    }
  });
});
