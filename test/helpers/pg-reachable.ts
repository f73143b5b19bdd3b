// Whether a PostgreSQL server answers at `url`: the tests and benchmarks that need one skip themselves when it does not.
import pg from 'pg';

export async function pgReachable(url: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  try {
    await c.connect();
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => {});
  }
}
