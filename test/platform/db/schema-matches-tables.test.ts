// The tables the features declare (each feature's *-tables.ts, composed in src/platform/database.ts)
// against a freshly migrated database: the same tables, the same columns, the same nullability and a
// storage type that fits each column's class, on SQLite and on PostgreSQL. A failure lists every
// difference, one line each.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { ColumnClass, Columns } from '../../../src/lib/db/table.js';
import { platformTables } from '../../../src/platform/database.js';
import { createTestDb, testDialect, type TestDb } from '../../helpers/db.js';

type Dialect = ReturnType<typeof testDialect>;

/** The database types each column class may be stored as, named as the introspection names them. */
const STORED_AS: Record<Dialect, Record<ColumnClass, readonly string[]>> = {
  sqlite: {
    text: ['text'],
    json: ['text'],
    timestamp: ['text'],
    integer: ['integer', 'bigint'],
    flag: ['integer'],
    real: ['double precision', 'real'],
  },
  postgres: {
    text: ['text'],
    json: ['text'],
    timestamp: ['text'],
    integer: ['int4', 'int8'],
    flag: ['int4', 'int2'],
    real: ['float8', 'float4'],
  },
};

interface ActualColumn {
  dataType: string;
  nullable: boolean;
}

let t: TestDb;
const actual = new Map<string, Map<string, ActualColumn>>();

beforeAll(async () => {
  t = await createTestDb();
  // Kysely's own migration tables are left out by the introspection; on PostgreSQL it sees every
  // schema, and this test's tables are in its own.
  const tables = (await t.db.kysely.introspection.getTables()).filter((x) => !x.isView && (!t.pgSchema || x.schema === t.pgSchema));
  for (const table of tables) {
    const keyColumns = await sqliteKeyColumns(table.name);
    actual.set(
      table.name,
      new Map(table.columns.map((c) => [c.name, { dataType: c.dataType.toLowerCase(), nullable: c.isNullable && !keyColumns.has(c.name) }])),
    );
  }
});
afterAll(() => t.cleanup());

/**
 * SQLite lets a primary key that is not an INTEGER hold NULL unless it is declared NOT NULL (a quirk it
 * keeps for compatibility), so its introspection calls such keys nullable; PostgreSQL never does, and the
 * platform never writes one: a key column counts as NOT NULL.
 */
async function sqliteKeyColumns(table: string): Promise<Set<string>> {
  if (t.db.dialect !== 'sqlite') return new Set();
  const { rows } = await sql<{ name: string }>`select name from pragma_table_info(${table}) where pk > 0`.execute(t.db.kysely);
  return new Set(rows.map((r) => r.name));
}

function differences(name: string, declared: Columns, columns: Map<string, ActualColumn>, dialect: Dialect): string[] {
  const out: string[] = [];
  for (const [column, decl] of Object.entries(declared)) {
    const found = columns.get(column);
    if (!found) {
      out.push(`${name}.${column}: declared, not in the database`);
      continue;
    }
    if (decl.nullable !== found.nullable) {
      out.push(`${name}.${column}: declared ${decl.nullable ? 'nullable' : 'NOT NULL'}, the database has it ${found.nullable ? 'nullable' : 'NOT NULL'}`);
    }
    const fits = STORED_AS[dialect][decl.class];
    if (!fits.includes(found.dataType)) out.push(`${name}.${column}: declared ${decl.class} (${fits.join(' or ')}), the database has ${found.dataType}`);
  }
  for (const column of columns.keys()) if (!(column in declared)) out.push(`${name}.${column}: in the database, not declared`);
  return out;
}

describe(`declared tables match the migrated ${testDialect()} database`, () => {
  it('the same tables', () => {
    const declared = Object.keys(platformTables);
    const missing = declared.filter((n) => !actual.has(n)).map((n) => `${n}: declared, not in the database`);
    const undeclared = [...actual.keys()].filter((n) => !(n in platformTables)).map((n) => `${n}: in the database, not declared`);
    expect([...missing, ...undeclared].sort()).toEqual([]);
  });

  it.each(Object.entries(platformTables))('%s: the same columns, nullability and storage types', (name, declared: Columns) => {
    const columns = actual.get(name);
    if (!columns) return; // reported by 'the same tables'
    expect(differences(name, declared, columns, testDialect())).toEqual([]);
  });
});
