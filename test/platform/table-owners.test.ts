// One owner per table (src/platform/table-owners.ts): every Kysely table reference and every raw SQL
// FROM/JOIN/INTO/UPDATE under src/platform sits in the owning feature's repository files. A file that
// needs another feature's rows calls that feature's repository functions.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isRepositoryOf, ownerOfTable, TABLE_OWNERS } from '../../src/platform/table-owners.js';

const ROOT = join(import.meta.dirname, '../../src/platform');

/**
 * Joins across two owners kept inside one owner's repository, each with why it cannot be two calls.
 * Each entry: [file relative to src/platform, table, reason].
 */
const ALLOWED: readonly (readonly [file: string, table: string, reason: string])[] = [];

interface TableRef {
  table: string;
  line: number;
  how: string;
}

const CALLS =
  /\b(selectFrom|insertInto|updateTable|deleteFrom|innerJoin|leftJoin|rightJoin|fullJoin|replaceInto|mergeInto|with|sql\s*\.\s*table)\s*\(\s*(\[[^\]]*\]|'[^']*'|"[^"]*"|`[^`$]*`)/g;
const QUOTED = /'([^']*)'|"([^"]*)"|`([^`]*)`/g;
const RAW_TABLE = /\b(from|join|into|update)\s+"?([a-z_][a-z0-9_]*)"?/gi;

const lineAt = (text: string, index: number) => text.slice(0, index).split('\n').length;

/** The table a Kysely argument names: `'cameras as c'` → cameras, `'public.cameras'` → cameras. */
const tableOf = (arg: string) =>
  arg
    .trim()
    .split(/\s+as\s+/i)[0]!
    .split('.')
    .pop()!
    .trim();

/** The text of each sql`…` template, with its `${…}` expressions blanked (same length, so lines hold). */
function sqlTemplates(text: string): { start: number; body: string }[] {
  const out: { start: number; body: string }[] = [];
  const open = /\bsql\s*(<[^`;]*?>)?\s*`/g;
  for (let m = open.exec(text); m; m = open.exec(text)) {
    const start = m.index + m[0].length;
    let i = start;
    let body = '';
    while (i < text.length && text[i] !== '`') {
      if (text[i] === '\\') {
        body += '  ';
        i += 2;
      } else if (text[i] === '$' && text[i + 1] === '{') {
        // Skip the expression, nested braces and inner templates included.
        let depth = 0;
        const from = i;
        for (; i < text.length; i++) {
          if (text[i] === '{') depth++;
          else if (text[i] === '}' && --depth === 0) break;
          else if (text[i] === '`') {
            i = text.indexOf('`', i + 1);
            if (i < 0) i = text.length;
          }
        }
        i++;
        body += text.slice(from, i).replace(/[^\n]/g, ' ');
      } else body += text[i++];
    }
    out.push({ start, body });
    open.lastIndex = i + 1;
  }
  return out;
}

/** Every table a source text references through Kysely or raw SQL. */
function tableRefs(text: string): TableRef[] {
  const refs: TableRef[] = [];
  for (const m of text.matchAll(CALLS)) {
    const how = m[1]!.replace(/\s/g, '');
    for (const q of m[2]!.matchAll(QUOTED)) {
      const table = tableOf(q[1] ?? q[2] ?? q[3] ?? '');
      // A `with` names a common table expression, a table only when it happens to be one.
      if (how === 'with' && !ownerOfTable(table)) continue;
      refs.push({ table, line: lineAt(text, m.index!), how });
    }
  }
  for (const t of sqlTemplates(text)) {
    for (const m of t.body.matchAll(RAW_TABLE)) {
      const table = m[2]!.toLowerCase();
      // Raw text says FROM/INTO for other things too (EXTRACT(… FROM …), CTE names): tables only.
      if (ownerOfTable(table)) refs.push({ table, line: lineAt(text, t.start + m.index!), how: `sql ${m[1]!.toUpperCase()}` });
    }
  }
  return refs;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

describe('the scanner', () => {
  it('finds every way of naming a table', () => {
    // Source text as the scanner reads it: the `${…}` below are the scanned code's, not this test's.
    const text = [
      "db.kysely.selectFrom('users').selectAll()",
      "k.selectFrom(\n  'cameras as c',\n).innerJoin('projects as p', 'p.id', 'c.project_id')",
      "trx.insertInto(\"notifications\").values(row); x.updateTable('api_keys'); x.deleteFrom('sessions')",
      "q.leftJoin('project_members as o', (j) => j).rightJoin('comments', 'a', 'b').fullJoin('snapshots', 'a', 'b')",
      "k.selectFrom(['bim_layers', 'bim_captures as c']); k.replaceInto('weather_cache'); k.mergeInto('video_walls as w')",
      "k.with('recent', (db) => db).with('anpr_events', (db) => db); sql.table('oauth_records')",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: scanned source text
      'await sql<{ n: number }>`\n  SELECT 1 FROM snapshot_buckets b JOIN "media_hub_items" m ON ${x} WHERE EXTRACT(epoch FROM ${y})`',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: scanned source text
      'sql`INSERT INTO audit_events ${values}`; sql`UPDATE progress_photos SET x = ${`FROM users`}`',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: scanned source text
      "k.selectFrom(sub.as('b')); sql`lower(${sql.ref('users.email')})`",
    ].join('\n');
    expect(tableRefs(text).map((r) => `${r.table}:${r.how}`)).toEqual([
      'users:selectFrom',
      'cameras:selectFrom',
      'projects:innerJoin',
      'notifications:insertInto',
      'api_keys:updateTable',
      'sessions:deleteFrom',
      'project_members:leftJoin',
      'comments:rightJoin',
      'snapshots:fullJoin',
      'bim_layers:selectFrom',
      'bim_captures:selectFrom',
      'weather_cache:replaceInto',
      'video_walls:mergeInto',
      'anpr_events:with',
      'oauth_records:sql.table',
      'snapshot_buckets:sql FROM',
      'media_hub_items:sql JOIN',
      'audit_events:sql INTO',
      'progress_photos:sql UPDATE',
    ]);
    expect(tableRefs(text).find((r) => r.table === 'snapshot_buckets')?.line).toBe(10);
  });

  it('knows each table’s owner', () => {
    expect(ownerOfTable('anpr_watchlist')).toBe('anpr');
    expect(ownerOfTable('site_connector_links')).toBe('connectors');
    expect(ownerOfTable('project_members')).toBe('members');
    expect(ownerOfTable('no_such_table')).toBeUndefined();
    expect(isRepositoryOf('connectors', 'connectors/framework/connector-repository.ts')).toBe(true);
    expect(isRepositoryOf('users', 'users/users-service.ts')).toBe(false);
    expect(isRepositoryOf('users', 'users-extra/users-repository.ts')).toBe(false);
  });
});

describe('src/platform', () => {
  const files = sourceFiles(ROOT).filter((f) => !f.split(sep).join('/').includes('/db/migrations/'));
  const refs = files.flatMap((f) => {
    const file = relative(ROOT, f).split(sep).join('/');
    return tableRefs(readFileSync(f, 'utf8')).map((r) => ({ ...r, file }));
  });

  it('is scanned (the scanner is not silently finding nothing)', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(refs.some((r) => r.file === 'users/users-repository.ts' && r.table === 'users')).toBe(true);
  });

  it('names only tables that have an owner', () => {
    const orphans = refs.filter((r) => !ownerOfTable(r.table)).map((r) => `${r.file}:${r.line} ${r.how}('${r.table}')`);
    expect(orphans, 'add the table to TABLE_OWNERS in src/platform/table-owners.ts').toEqual([]);
  });

  it('queries each table only in its owner’s repository files', () => {
    const allowed = (file: string, table: string) => ALLOWED.some(([f, t]) => f === file && t === table);
    const outside = refs
      .filter((r) => {
        const owner = ownerOfTable(r.table);
        return owner && !isRepositoryOf(owner, r.file) && !allowed(r.file, r.table);
      })
      .map((r) => `${r.file}:${r.line} ${r.how}('${r.table}') belongs to ${ownerOfTable(r.table)}`);
    expect(outside, 'call the owning feature’s repository functions instead').toEqual([]);
  });

  it('allows only joins that are still there, each with a reason', () => {
    for (const [file, table, reason] of ALLOWED) {
      expect(reason.trim(), `${file} ${table}`).not.toBe('');
      expect(
        refs.some((r) => r.file === file && r.table === table),
        `${file} no longer references ${table}: drop it from ALLOWED`,
      ).toBe(true);
    }
  });

  it('has an owner folder for every feature of the map', () => {
    for (const feature of Object.keys(TABLE_OWNERS)) expect(readdirSync(join(ROOT, feature)).length, feature).toBeGreaterThan(0);
  });

  it('agrees with the tables each feature declares (its `*-tables.ts`)', async () => {
    const declared = new Map<string, string>();
    for (const f of files.filter((f) => f.endsWith('-tables.ts'))) {
      const feature = relative(ROOT, f).split(sep)[0]!;
      const mod = (await import(f)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(mod)) {
        if (name.endsWith('Tables') && value && typeof value === 'object') for (const table of Object.keys(value)) declared.set(table, feature);
      }
    }
    expect(declared.size).toBeGreaterThan(30);
    for (const [table, feature] of declared) expect(ownerOfTable(table), `${table}, declared in ${feature}/`).toBe(feature);
    for (const table of Object.values(TABLE_OWNERS).flat()) {
      if (!table.endsWith('*')) expect(declared.has(table), `${table} is owned but declared nowhere`).toBe(true);
    }
  });
});
