// The two small parsers every ANPR filter relies on: plate normalisation and strict ISO 8601 instants.
import { describe, expect, it } from 'vitest';
import { normalisePlate, plateFilter } from '../../../src/platform/anpr/plate.js';

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
