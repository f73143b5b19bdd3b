import { describe, expect, it } from 'vitest';
import { decodeFromPlatform, decodeFromRecorder, encode } from '../../../src/lib/site-link/protocol.js';

describe('site-link protocol', () => {
  it('carries a frame with its JPEG as one binary message', () => {
    const jpeg = Buffer.from([0xff, 0xd8, 1, 2, 3, 0xff, 0xd9]);
    const wire = encode({ type: 'frame', seq: 7, device_id: 'd1', taken_at: '2026-11-28T06:00:00.000Z' }, jpeg);
    expect(Buffer.isBuffer(wire)).toBe(true);
    const decoded = decodeFromRecorder(wire);
    expect(decoded?.message).toEqual({ type: 'frame', seq: 7, device_id: 'd1', taken_at: '2026-11-28T06:00:00.000Z' });
    expect(decoded?.payload?.equals(jpeg)).toBe(true);
  });

  it('carries a message without payload as text', () => {
    const wire = encode({ type: 'ack', seq: 3 });
    expect(typeof wire).toBe('string');
    expect(decodeFromPlatform(wire)).toEqual({ message: { type: 'ack', seq: 3 }, payload: null });
  });

  it('refuses what does not fit', () => {
    expect(decodeFromRecorder('not json')).toBeNull();
    expect(decodeFromRecorder(JSON.stringify({ type: 'frame', seq: 0, device_id: 'd', taken_at: '2026-11-28T06:00:00Z' }))).toBeNull();
    expect(decodeFromRecorder(JSON.stringify({ type: 'frame', seq: 1, device_id: 'd', taken_at: 'yesterday' }))).toBeNull();
    expect(decodeFromRecorder(JSON.stringify({ type: 'welcome', link_id: 'l', project_exid: 'p' }))).toBeNull();
    expect(decodeFromPlatform(JSON.stringify({ type: 'request', req: 1, what: 'live_segment', device_id: 'd', name: '../x' }))).toBeNull();
    const short = Buffer.alloc(8);
    short.writeUInt32BE(100, 0);
    expect(decodeFromRecorder(short)).toBeNull();
  });
});
