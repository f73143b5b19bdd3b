// The plate reader's pure parts: plate text, formats with confused characters, the vehicle tracker,
// watch-list matching and the settings' checks.
import { describe, expect, it } from 'vitest';
import { fitToFormat, plateFormat } from '../../../src/recorder/plate-settings/plate-pattern.js';
import { editDistance, normalisePlate } from '../../../src/recorder/plate-settings/plate-text.js';
import { VehicleTracker, type PlateRead } from '../../../src/recorder/plates/vehicle-tracker.js';
import { watchMatch } from '../../../src/recorder/plates/plate-reader.js';
import { mergePlateReader, plateReaderConfig } from '../../../src/recorder/plate-settings/plate-reader-config.js';

const read = (plate: string, at: number, confidence = 0.9): PlateRead<string> => ({ plate, confidence, box: [0, 0, 10, 5], at, frame: `${plate}@${at}` });

describe('plate text and formats', () => {
  it('normalises and measures edit distance', () => {
    expect(normalisePlate(' ab-12 cdé')).toBe('AB12CD');
    expect(editDistance('AB12CDE', 'AB12CDE')).toBe(0);
    expect(editDistance('AB12CDE', 'A812CDE')).toBe(1);
    expect(editDistance('AB12CDE', 'AB12CD')).toBe(1);
    expect(editDistance('', 'ABC')).toBe(3);
  });

  it('swaps confused characters where the format says letter or digit, fewest swaps first', () => {
    const gb = plateFormat('GB', null);
    expect(fitToFormat('AB12CDE', gb)).toBe('AB12CDE');
    expect(fitToFormat('A812CDE', gb)).toBe('AB12CDE');
    expect(fitToFormat('ABI2CD8', gb)).toBe('AB12CDB');
    expect(fitToFormat('AB12CD', gb)).toBeNull();
    expect(fitToFormat('XX12ABC', plateFormat('GB', '^[0-9]{3}[A-Z]{4}$'))).toBeNull();
    expect(fitToFormat('SO12ABC', plateFormat('any', '^[0-9]{3}[A-Z]{4}$'))).toBe('501ZABC');
  });
});

describe('vehicle tracker', () => {
  it('gives one vehicle per pass, its plate the one read most often, shown by its best read', () => {
    const t = new VehicleTracker<string>(2000);
    expect(t.frame(0, [read('AB12CDE', 0, 0.8)])).toEqual([]);
    expect(t.frame(500, [read('AB12CDF', 500, 0.99)])).toEqual([]);
    expect(t.frame(1000, [read('AB12CDE', 1000, 0.95)])).toEqual([]);
    expect(t.frame(1500, [])).toEqual([]);
    // A different plate while the first is still open: a second vehicle.
    expect(t.frame(2000, [read('XY99ZZZ', 2000)])).toEqual([]);
    const passed = t.frame(3000, []);
    expect(passed).toHaveLength(1);
    expect(passed[0]).toMatchObject({ reads: 3, agreeing: 2, firstAt: 0, lastAt: 1000 });
    expect(passed[0]?.best.frame).toBe('AB12CDE@1000');
    expect(t.frame(3500, [])).toEqual([]);
    expect(t.frame(4000, []).map((v) => v.best.plate)).toEqual(['XY99ZZZ']);
    expect(t.flush()).toEqual([]);
  });

  it('flushes open vehicles when the stream stops', () => {
    const t = new VehicleTracker<string>(2000);
    t.frame(0, [read('AB12CDE', 0)]);
    expect(t.flush().map((v) => v.best.plate)).toEqual(['AB12CDE']);
  });
});

describe('watch list and settings', () => {
  const list = [
    { plate: 'AB12CDE', list_type: 'white' as const, label: 'Concrete Co' },
    { plate: 'XY99ZZZ', list_type: 'black' as const, label: null },
  ];
  it('matches within the allowed distance, nearest first', () => {
    expect(watchMatch('AB12CDE', list, 1)).toMatchObject({ entry: { label: 'Concrete Co' }, distance: 0 });
    expect(watchMatch('AB12CDF', list, 1)).toMatchObject({ entry: { label: 'Concrete Co' }, distance: 1 });
    expect(watchMatch('AB12CDF', list, 0)).toBeNull();
    expect(watchMatch('QQ11QQQ', list, 2)).toBeNull();
  });

  it('merges settings over defaults, normalises the watch list and refuses a bad pattern', () => {
    const stored = mergePlateReader(null, { enabled: true, country: 'GB', watch_list: [{ plate: 'ab12 cde', label: ' Concrete Co ' }] });
    const cfg = plateReaderConfig(stored);
    expect(cfg).toMatchObject({
      enabled: true,
      country: 'GB',
      pattern: null,
      fps: 2,
      watch_list: [{ plate: 'AB12CDE', list_type: 'other', label: 'Concrete Co' }],
    });
    const again = plateReaderConfig(mergePlateReader(stored, { enabled: false, pattern: '^[A-Z]{3}$' }));
    expect(again).toMatchObject({ enabled: false, pattern: '^[A-Z]{3}$', watch_list: [{ plate: 'AB12CDE' }] });
    expect(() => mergePlateReader(stored, { enabled: true, pattern: '([A-Z' })).toThrow(/pattern/);
    expect(() => mergePlateReader(stored, { enabled: true, watch_list: [{ plate: '--' }] })).toThrow(/watch_list\.0\.plate/);
  });
});
