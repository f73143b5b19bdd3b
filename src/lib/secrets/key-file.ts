// A service's 32-byte secret key: given as base64 in an environment variable, or generated once into
// a key file (mode 0600) beside the data it protects. Two processes starting at once never overwrite
// each other's key (`wx`): the second reads the first one's.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

const KEY_BYTES = 32;

export interface KeyFileOptions {
  /** The key as given in the environment (base64), which wins over the file. */
  base64?: string;
  file: string;
  /** The variable `base64` came from, named when it is wrong. */
  envName: string;
  /**
   * Whether an existing key file is set back to mode 0600 when it is read (the default, the recorder's
   * way). The platform leaves an existing key file's mode as it finds it, as it always has.
   */
  tightenExisting?: boolean;
}

export interface LoadedKey {
  key: Buffer;
  /** `config`: the environment variable; `file`: the key file. */
  source: 'config' | 'file';
}

/** The key and where it came from. */
export function loadKey(opts: KeyFileOptions): LoadedKey {
  if (opts.base64) {
    const key = Buffer.from(opts.base64, 'base64');
    if (key.length !== KEY_BYTES) throw new Error(`${opts.envName} must be the base64 encoding of ${KEY_BYTES} bytes`);
    return { key, source: 'config' };
  }
  if (existsSync(opts.file)) {
    const key = Buffer.from(readFileSync(opts.file, 'utf8').trim(), 'base64');
    if (key.length !== KEY_BYTES) throw new Error(`${opts.file} does not hold a base64 ${KEY_BYTES}-byte key`);
    if (opts.tightenExisting ?? true) chmodSync(opts.file, 0o600);
    return { key, source: 'file' };
  }
  mkdirSync(dirname(opts.file), { recursive: true });
  const key = randomBytes(KEY_BYTES);
  try {
    writeFileSync(opts.file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return loadKey(opts);
    throw err;
  }
  chmodSync(opts.file, 0o600);
  return { key, source: 'file' };
}

/** The key alone. */
export const loadKeyFile = (opts: KeyFileOptions): Buffer => loadKey(opts).key;
