// The platform's secret key, loaded by the shared key loader (src/lib/secrets/key-file.ts): it keeps its
// file name, its source, its messages and its way with an existing key file's mode.
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSecretKey, SECRET_KEY_FILE } from '../../../src/platform/secrets/secret-key.js';

const dirs: string[] = [];
const newDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'overlook-secret-key-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const mode = (file: string) => statSync(file).mode & 0o777;

describe('loadSecretKey (the platform)', () => {
  it('keeps its file name, its source and its messages', () => {
    const dataDir = newDir();
    const made = loadSecretKey({ dataDir });
    expect(made.source).toBe('file');
    expect(mode(join(dataDir, SECRET_KEY_FILE))).toBe(0o600);
    expect(SECRET_KEY_FILE).toBe('connector-secret.key');
    expect(loadSecretKey({ dataDir, secretKeyBase64: Buffer.alloc(32, 1).toString('base64') }).source).toBe('config');
    expect(() => loadSecretKey({ dataDir, secretKeyBase64: 'c2hvcnQ=' })).toThrow('OVERLOOK_SECRET_KEY must be the base64 encoding of 32 bytes');
    const bad = newDir();
    writeFileSync(join(bad, SECRET_KEY_FILE), 'c2hvcnQ=\n');
    expect(() => loadSecretKey({ dataDir: bad })).toThrow(`${join(bad, SECRET_KEY_FILE)} does not hold a base64 32-byte key`);
  });

  it('leaves an existing key file’s mode as it finds it, as it always has', () => {
    const dataDir = newDir();
    const file = join(dataDir, SECRET_KEY_FILE);
    const made = loadSecretKey({ dataDir }).key;
    chmodSync(file, 0o640);
    expect(loadSecretKey({ dataDir }).key).toEqual(made);
    expect(mode(file)).toBe(0o640);
  });
});
