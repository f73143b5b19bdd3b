// API key values: `olk_` + 43 base62 characters (32 random bytes) + 6 base62 characters of CRC-32.
// The checksum lets a malformed or mistyped value be refused without touching the database;
// only the SHA-256 of the whole value is stored, and it is compared in constant time.
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';
import baseX from 'base-x';

export const API_KEY_PREFIX = 'olk_';
const BODY_LEN = 43;
const CHECK_LEN = 6;
export const API_KEY_LENGTH = API_KEY_PREFIX.length + BODY_LEN + CHECK_LEN;
const SHAPE = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${BODY_LEN + CHECK_LEN}}$`);

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const base62 = baseX(ALPHABET);
const pad = (s: string, n: number) => s.padStart(n, '0');
// A 32-bit CRC in six base62 digits (62^6 > 2^32); plain arithmetic, as it runs on every request.
const checksum = (body: string) => {
  let n = crc32(API_KEY_PREFIX + body) >>> 0;
  let out = '';
  for (let i = 0; i < CHECK_LEN; i++) {
    out = ALPHABET[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
};

export function generateApiKey(): string {
  const body = pad(base62.encode(randomBytes(32)), BODY_LEN);
  return API_KEY_PREFIX + body + checksum(body);
}

/** Shape and checksum only: true means "worth looking up", not "valid". */
export function isWellFormedApiKey(value: string): boolean {
  if (value.length !== API_KEY_LENGTH || !SHAPE.test(value)) return false;
  const body = value.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + BODY_LEN);
  return checksum(body) === value.slice(-CHECK_LEN);
}

/** Anything that starts like one of our keys, well-formed or not (to refuse keys in the wrong header). */
export const looksLikeApiKey = (value: string) => value.startsWith(API_KEY_PREFIX);

/** The hex SHA-256 the database keeps. Hex straight from `hash`: a third of the time of a Buffer turned into hex. */
export const hashApiKey = (value: string): string => hash('sha256', value, 'hex');

/** Constant-time comparison of two digests (hex strings or raw bytes). */
export function sameHash(a: string | Buffer, b: string | Buffer): boolean {
  // Two hex strings are compared as text: no Buffer per call (the key lookup makes this call on every request).
  if (typeof a === 'string' && typeof b === 'string') return sameText(a, b);
  const x = typeof a === 'string' ? Buffer.from(a, 'hex') : a;
  const y = typeof b === 'string' ? Buffer.from(b, 'hex') : b;
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Whether two strings are equal, in a time that depends on their length alone: every character is read, none ends the loop early. */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** What a list shows to recognise a key: its prefix and first characters. */
export const keyHint = (value: string) => value.slice(0, API_KEY_PREFIX.length + 6);
