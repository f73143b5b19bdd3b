import { describe, expect, it } from 'vitest';
import { parseInstant, parseRfc3339, parseTimestamp, rangeOrFail, unixOrInstant, unixOrInstantRange } from '../../../src/lib/time/read-time.js';

describe('parseRfc3339', () => {
  it.each([
    ['2026-02-28T10:00:00Z', '2026-02-28T10:00:00.000Z'],
    ['2024-02-29T23:59:59.5Z', '2024-02-29T23:59:59.500Z'],
    ['2026-01-01T01:00:00+01:00', '2026-01-01T00:00:00.000Z'],
    ['2026-01-01t00:00:00.123456789-02:30', '2026-01-01T02:30:00.123Z'],
    ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z'],
  ])('reads %s', (text, iso) => {
    expect(parseRfc3339(text)?.toISOString()).toBe(iso);
  });

  it.each([
    '1',
    '2026',
    '12/25/2026',
    '2026-02-30T00:00:00Z',
    '2025-02-29T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-01-01T24:00:00Z',
    '2026-01-01T00:60:00Z',
    '2026-12-31T23:59:60Z',
    '2026-01-01T00:00:00',
    '2026-01-01 00:00:00Z',
    '2026-01-01T00:00:00+24:00',
    '2026-01-01T00:00:00.Z',
    '2026-01-01T00:00:00.1234567890Z',
    ' 2026-01-01T00:00:00Z',
    'Thu, 01 Jan 2026 00:00:00 GMT',
    '',
  ])('refuses %j', (text) => {
    expect(parseRfc3339(text)).toBeNull();
  });
});

describe('parseInstant', () => {
  it('reads ISO 8601 with a zone, or a date alone as midnight UTC', () => {
    expect(parseInstant('2026-11-23T08:15:00Z')).toBe('2026-11-23T08:15:00.000Z');
    expect(parseInstant('2026-11-23T08:15:00.5+01:00')).toBe('2026-11-23T07:15:00.500Z');
    expect(parseInstant('2026-11-23T08:15-0230')).toBe('2026-11-23T10:45:00.000Z');
    expect(parseInstant('2026-11-23 08:15:00Z')).toBe('2026-11-23T08:15:00.000Z');
    expect(parseInstant('2028-02-29')).toBe('2028-02-29T00:00:00.000Z');
  });

  it('refuses loose, ambiguous and impossible dates', () => {
    for (const bad of [
      '1',
      'yesterday',
      '2026-11-23T08:15:00',
      '2026-02-29',
      '2026-02-30T00:00:00Z',
      '2026-13-01',
      '2026-11-23T24:00:00Z',
      '2026-11-23T08:60:00Z',
      '1969-12-31',
      '23/11/2026',
      '2026-11-23T08:15:00Z trailing',
    ]) {
      expect(parseInstant(bad), bad).toBeNull();
    }
  });
});

const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return (e as { details?: unknown }).details;
  }
  return 'accepted';
};

describe('parseTimestamp', () => {
  it.each([
    ['2026-11-23T10:15:00Z', '2026-11-23T10:15:00.000Z', 1000],
    ['2026-11-23T10:15:00.12+01:00', '2026-11-23T09:15:00.120Z', 10],
    ['2026-11-23 10:15:00,5-05', '2026-11-23T15:15:00.500Z', 100],
    ['2026-11-23T10:15', '2026-11-23T10:15:00.000Z', 60_000],
    ['2026-11-23', '2026-11-23T00:00:00.000Z', 86_400_000],
    [' 1795421700 ', '2026-11-23T08:15:00.000Z', 1000],
    ['1795421700.25', '2026-11-23T08:15:00.250Z', 10],
  ])('reads %j with its precision', (text, iso, precisionMs) => {
    const t = parseTimestamp('timestamp', text);
    expect([new Date(t.ms).toISOString(), t.precisionMs]).toEqual([iso, precisionMs]);
  });

  it.each(['2026-11-23t10:15:00Z', '2026-11-23T10:15:00+15:00', '1969-12-31T23:59:59Z', '0070-01-01', '9999-12-31T23:00:00-05:00', 'now', '1795421700.1234'])(
    'refuses %j with a 400 naming the field',
    (text) => {
      expect(refusal(() => parseTimestamp('from', text))).toEqual([
        { field: 'from', message: 'must be an ISO 8601 time (e.g. 2026-11-23T10:15:00Z) or Unix seconds, between 1970 and 9999' },
      ]);
    },
  );
});

describe('unixOrInstant', () => {
  it('reads Unix seconds, numbers included, and instants', () => {
    expect(unixOrInstant('1795421700', 'at')).toBe('2026-11-23T08:15:00.000Z');
    expect(unixOrInstant(0, 'at')).toBe('1970-01-01T00:00:00.000Z');
    expect(unixOrInstant('253402300799', 'at')).toBe('9999-12-31T23:59:59.000Z');
    expect(unixOrInstant('2026-11-23', 'at')).toBe('2026-11-23T00:00:00.000Z');
  });

  it('refuses out-of-range seconds and loose text, each with its message', () => {
    expect(refusal(() => unixOrInstant('253402300800', 'at'))).toEqual([
      { field: 'at', message: 'must be Unix seconds (0 to 253402300799) or an ISO 8601 date-time' },
    ]);
    expect(refusal(() => unixOrInstant(1.5, 'at'))).toEqual([{ field: 'at', message: 'must be Unix seconds (0 to 253402300799) or an ISO 8601 date-time' }]);
    expect(refusal(() => unixOrInstant('1.5', 'at'))).toEqual([
      { field: 'at', message: 'must be an ISO 8601 date-time with a zone (2026-11-23T08:15:00Z), a date (2026-11-23) or Unix seconds' },
    ]);
  });
});

describe('ranges', () => {
  it('refuses a from after the to', () => {
    expect(rangeOrFail('2026-11-23', '2026-11-24')).toEqual({ from: '2026-11-23T00:00:00.000Z', to: '2026-11-24T00:00:00.000Z' });
    expect(refusal(() => rangeOrFail('2026-11-24', '2026-11-23'))).toEqual([{ field: 'from', message: 'must not be after to' }]);
    expect(refusal(() => unixOrInstantRange('1795421700', '2026-11-23'))).toEqual([{ field: 'from', message: 'must not be after to' }]);
    expect(refusal(() => rangeOrFail('yesterday'))).toEqual([
      { field: 'from', message: 'must be an ISO 8601 date-time with a zone (e.g. 2026-11-23T08:15:00Z) or a date (2026-11-23)' },
    ]);
  });
});
