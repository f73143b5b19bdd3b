// README.md's configuration table is the one the schemas make (src/lib/config/env-schema.ts), and the
// schemas name every environment variable the source mentions.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { envVariables, renderConfigTable } from '../../../src/lib/config/config-table.js';
import { CONNECTOR_PROVIDERS } from '../../../src/platform/connectors/providers.js';
import { envStem } from '../../../src/platform/connectors/framework/provider.js';
import { BEGIN, END, README } from '../../../scripts/config-table.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));

describe('configuration table', () => {
  it('README.md holds the table the schemas make (npm run docs:config rewrites it)', () => {
    const doc = readFileSync(README, 'utf8');
    const a = doc.indexOf(BEGIN);
    const b = doc.indexOf(END);
    expect(a).toBeGreaterThan(0);
    expect(doc.slice(a + BEGIN.length, b).trim()).toBe(renderConfigTable());
  });

  it('every variable has a description and is read by some service', () => {
    for (const v of envVariables()) {
      expect(v.schema.description, v.name).toBeTruthy();
      expect(v.services.length, v.name).toBeGreaterThan(0);
    }
  });

  it('the connector rows name every connector provider', () => {
    const row = envVariables().find((v) => v.name === 'OVERLOOK_<PROVIDER>_URL');
    for (const p of CONNECTOR_PROVIDERS) expect(row?.schema.description, p.id).toMatch(new RegExp(`\\b${envStem(p.id)}\\b`));
  });

  it('every variable named in src/ is in the schemas', () => {
    const known = new Set(envVariables().map((v) => v.name));
    const stems = CONNECTOR_PROVIDERS.map((p) => envStem(p.id)).join('|');
    const connectorVariable = new RegExp(`^OVERLOOK_(${stems})_(URL|AUTH_URL|CLIENT_ID|CLIENT_SECRET)$`);
    const unknown: string[] = [];
    for (const file of sources(join(ROOT, 'src'))) {
      // A name followed by `*` or `${` is a family (OVERLOOK_S3_*, OVERLOOK_${prefix}_URL), spelled out elsewhere.
      for (const m of readFileSync(file, 'utf8').matchAll(/\b(OVERLOOK_[A-Z0-9_]*[A-Z0-9]|DATABASE_URL)\b(?![*$])/g)) {
        const name = m[1]!;
        if (!known.has(name) && !connectorVariable.test(name)) unknown.push(`${relative(ROOT, file)}: ${name}`);
      }
    }
    expect(unknown).toEqual([]);
  });
});
