// The two small parsers every ANPR filter relies on: plate normalisation and strict ISO 8601 instants.
import { describe, expect, it } from 'vitest';
import { normalisePlate, plateFilter } from '../../../src/platform/anpr/plate.js';
import { parseInstant } from '../../../src/platform/anpr/time.js';

describe('plates', () => {
  it('upper-cases and drops spaces, dashes and dots, in any script', () => {
    expect(normalisePlate(' ab 12-cde ')).toBe('AB12CDE');
    expect(normalisePlate('AB–12·CD')).toBe('AB12CD');
    expect(normalisePlate('m.ü 1234')).toBe('MÜ1234');
    expect(normalisePlate('ｋｌ５５')).toBe('KL55'); // full-width characters, as some OCR engines emit
    expect(normalisePlate('Ж 123 ОК')).toBe('Ж123ОК');
  });

  it('refuses what is not a plate', () => {
    for (const bad of ['', ' - ', '#AB1', 'AB_1', 'A'.repeat(21), '🚗', 'AB\n1\t2x%']) expect(normalisePlate(bad), JSON.stringify(bad)).toBeNull();
  });

  it('filters: exact, or a prefix with a trailing *', () => {
    expect(plateFilter('ab 12')).toEqual({ exact: 'AB12' });
    expect(plateFilter('ab-1*')).toEqual({ prefix: 'AB1' });
    expect(plateFilter(undefined)).toBeUndefined();
    for (const bad of ['*', '**', 'A*B', '*AB']) expect(() => plateFilter(bad), bad).toThrow();
  });
});

describe('instants', () => {
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
