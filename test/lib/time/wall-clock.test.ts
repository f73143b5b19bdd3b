import { describe, expect, it } from 'vitest';
import { pad2, wallClock, zoneOffsetMs } from '../../../src/lib/time/wall-clock.js';

describe('wallClock', () => {
  it('reads an instant as the zone shows it, midnight as hour 0, on both sides of a DST change', () => {
    expect(wallClock(Date.parse('2026-03-29T00:59:59Z'), 'Europe/Berlin')).toEqual({ year: 2026, month: 3, day: 29, hour: 1, minute: 59, second: 59 });
    expect(wallClock(Date.parse('2026-03-29T01:00:00Z'), 'Europe/Berlin')).toEqual({ year: 2026, month: 3, day: 29, hour: 3, minute: 0, second: 0 });
    expect(wallClock(new Date('2026-12-31T23:00:00Z'), 'Europe/Berlin')).toEqual({ year: 2027, month: 1, day: 1, hour: 0, minute: 0, second: 0 });
    expect(wallClock(new Date('2026-05-01T10:00:00Z'), 'UTC').hour).toBe(10);
  });

  it('refuses a zone Intl does not know', () => {
    expect(() => wallClock(0, 'Mars/Olympus')).toThrow(RangeError);
  });

  it('gives the zone’s offset from UTC on both sides of a DST change', () => {
    expect(zoneOffsetMs(Date.parse('2026-03-29T00:59:59.900Z'), 'Europe/Berlin')).toBe(3_600_000);
    expect(zoneOffsetMs(Date.parse('2026-03-29T01:00:00Z'), 'Europe/Berlin')).toBe(7_200_000);
    expect(zoneOffsetMs(Date.parse('2026-07-01T12:00:00Z'), 'America/New_York')).toBe(-4 * 3_600_000);
  });

  it('pads to two digits', () => {
    expect([pad2(0), pad2(9), pad2(12)]).toEqual(['00', '09', '12']);
  });
});
