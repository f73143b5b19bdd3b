// Plain statements on a PostgreSQL server for the tests' own set-up: databases made and dropped.
import pg from 'pg';

/** Runs one statement on the database `url` names, on a connection of its own. */
export async function onDatabase(url: string, statement: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(statement);
  } finally {
    await c.end();
  }
}

/** The URL of database `name` on the server `url` names. */
export function databaseUrlOf(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}
