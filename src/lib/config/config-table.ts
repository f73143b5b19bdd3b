// The configuration table of README.md, made from the schemas in env-schema.ts: one row per variable
// with its type, default, the services that read it and its meaning. `npm run docs:config` writes it
// into README.md, and a test fails when the two disagree.
import type { TSchema } from 'typebox';
import type { ServiceName } from './addresses.js';
import { ConnectorEnv, SERVICE_ENV } from './env-schema.js';

export interface EnvVariable {
  name: string;
  schema: TSchema & { type?: string; enum?: unknown[]; default?: unknown; defaultText?: string; description?: string };
  services: ServiceName[];
}

/** Every variable, in the order the services' schemas list them (the main API's first). */
export function envVariables(): EnvVariable[] {
  const rows = new Map<string, EnvVariable>();
  const sources: [ServiceName, { properties: Record<string, TSchema> }][] = [
    ['platform', SERVICE_ENV.platform],
    ['platform', ConnectorEnv],
    ['recorder', SERVICE_ENV.recorder],
    ['mcp', SERVICE_ENV.mcp],
    ['ai', SERVICE_ENV.ai],
    ['labs', SERVICE_ENV.labs],
  ];
  for (const [service, schema] of sources) {
    for (const [name, s] of Object.entries(schema.properties)) {
      const row: EnvVariable = rows.get(name) ?? { name, schema: s, services: [] };
      if (!row.services.includes(service)) row.services.push(service);
      rows.set(name, row);
    }
  }
  return [...rows.values()];
}

const ALL_SERVICES = Object.keys(SERVICE_ENV).length;
const cell = (text: string) => text.replace(/\|/g, '\\|');

function typeOf(s: EnvVariable['schema']): string {
  if (s.enum) return s.enum.map((v) => `\`${String(v)}\``).join(', ');
  return s.type === 'number' ? 'number > 0' : 'text';
}

function defaultOf(s: EnvVariable['schema']): string {
  if (s.default !== undefined) return `\`${String(s.default)}\``;
  return s.defaultText ?? 'unset';
}

export function renderConfigTable(variables = envVariables()): string {
  const lines = ['| variable | type | default | read by | meaning |', '|---|---|---|---|---|'];
  for (const v of variables) {
    const readBy = v.services.length === ALL_SERVICES ? 'every service' : v.services.join(', ');
    lines.push(`| \`${v.name}\` | ${typeOf(v.schema)} | ${cell(defaultOf(v.schema))} | ${readBy} | ${cell(v.schema.description ?? '')} |`);
  }
  return lines.join('\n');
}
