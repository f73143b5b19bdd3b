// The version of the installed package, read from its package.json: one level above src/ and dist/ alike.
import { readFileSync } from 'node:fs';

export const PACKAGE_VERSION: string = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;
