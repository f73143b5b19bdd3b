// Ingestion token values: `oit_` + 43 base62 characters (32 random bytes). The prefix tells them apart
// from API keys (`olk_`) and JWTs at a glance and in secret scanners; only the SHA-256 is stored.
import { hash, randomBytes } from 'node:crypto';
import baseX from 'base-x';

export const INGESTION_TOKEN_PREFIX = 'oit_';
const BODY_LEN = 43;
const SHAPE = new RegExp(`^${INGESTION_TOKEN_PREFIX}[0-9A-Za-z]{${BODY_LEN}}$`);
const base62 = baseX('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz');

export const generateIngestionToken = (): string => INGESTION_TOKEN_PREFIX + base62.encode(randomBytes(32)).padStart(BODY_LEN, '0');

/** Shape only: true means "worth looking up". */
export const isWellFormedIngestionToken = (value: string): boolean => SHAPE.test(value);

export const hashIngestionToken = (value: string): Buffer => hash('sha256', value, 'buffer');

/** What a list shows to recognise a token. */
export const ingestionTokenHint = (value: string) => value.slice(0, INGESTION_TOKEN_PREFIX.length + 6);
