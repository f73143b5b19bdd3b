// The key loader the recorder and the platform share (the platform's use: test/platform/secrets/secret-key.test.ts).
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadKey, loadKeyFile } from '../../../src/lib/secrets/key-file.js';

const dirs: string[] = [];
const newDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'overlook-key-file-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const mode = (file: string) => statSync(file).mode & 0o777;

describe('loadKey', () => {
  it('says where the key came from', () => {
    const file = join(newDir(), 'k.key');
    const given = Buffer.alloc(32, 3);
    expect(loadKey({ base64: given.toString('base64'), file, envName: 'K' })).toEqual({ key: given, source: 'config' });
    const made = loadKey({ file, envName: 'K' });
    expect(made.source).toBe('file');
    expect(loadKey({ file, envName: 'K' })).toEqual(made);
  });

  it('sets an existing key file back to 0600 by default (the recorder)', () => {
    const file = join(newDir(), 'k.key');
    const made = loadKeyFile({ file, envName: 'K' });
    chmodSync(file, 0o644);
    expect(loadKeyFile({ file, envName: 'K' })).toEqual(made);
    expect(mode(file)).toBe(0o600);
  });
});
