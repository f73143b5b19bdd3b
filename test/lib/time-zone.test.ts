import { describe, expect, it } from 'vitest';
import { isTimeZone } from '../../src/lib/time-zone.js';

describe('isTimeZone', () => {
  it('knows IANA zones (and again from memory), refuses others every time', () => {
    expect(isTimeZone('Europe/London')).toBe(true);
    expect(isTimeZone('Europe/London')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Base')).toBe(false);
    expect(isTimeZone('Mars/Base')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });
});
