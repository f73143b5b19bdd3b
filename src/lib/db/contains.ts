// Case-insensitive substring search, the same on SQLite and PostgreSQL.
import { sql } from 'kysely';

/** `column` contains `q` (trimmed, any case); `%` and `_` in the search mean the characters themselves. */
export const contains = (column: string, q: string) =>
  sql<boolean>`lower(${sql.ref(column)}) like ${`%${q
    .trim()
    .toLowerCase()
    .replace(/[\\%_]/g, (c) => `\\${c}`)}%`} escape '\\'`;
