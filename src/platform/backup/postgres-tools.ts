// PostgreSQL's own tools for the database part of a backup: `pg_dump` in its custom format (one
// consistent snapshot, taken while the nodes keep writing) and `pg_restore` into an empty database.
// The password travels in PGPASSWORD, never on a command line other users can read.
import { execFile } from 'node:child_process';
import pg from 'pg';
import { inheritedEnv } from '../../lib/config.js';

/** A connection string without its password, and the environment that carries the password. */
function connection(databaseUrl: string): { url: string; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return { url: url.toString(), env: inheritedEnv(password ? { PGPASSWORD: password } : undefined) };
}

function run(tool: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(tool, args, { env, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      if (!err) return resolve(stdout);
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        return reject(new Error(`${tool} was not found: install PostgreSQL's client tools (Debian: postgresql-client) of the server's major version or newer`));
      }
      reject(new Error(`${tool} failed: ${stderr.trim() || err.message}`));
    });
  });
}

/** Dumps the database into `file` (custom format); returns the tool's version line. */
export async function pgDump(databaseUrl: string, file: string): Promise<string> {
  const { url, env } = connection(databaseUrl);
  const version = (await run('pg_dump', ['--version'], env)).trim();
  await run('pg_dump', ['--format=custom', '--no-password', `--file=${file}`, `--dbname=${url}`], env);
  return version;
}

/** Restores a dump into the (empty) database, all of it or nothing. */
export async function pgRestore(databaseUrl: string, file: string): Promise<void> {
  const { url, env } = connection(databaseUrl);
  await run('pg_restore', ['--no-password', '--no-owner', '--no-privileges', '--single-transaction', '--exit-on-error', `--dbname=${url}`, file], env);
}

/** The tables already in the database, outside PostgreSQL's own schemas (a restore needs none). */
export async function userTables(databaseUrl: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      `SELECT table_schema || '.' || table_name AS name FROM information_schema.tables
       WHERE table_schema NOT IN ('pg_catalog', 'information_schema') AND table_schema NOT LIKE 'pg\\_%' ORDER BY 1 LIMIT 5`,
    );
    return rows.map((r) => r.name);
  } finally {
    await client.end();
  }
}
