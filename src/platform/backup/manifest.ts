// The manifest a backup ends with: what made it, the database's kind and migration level, and every
// file with its size and SHA-256, checked in full before a restore writes anything.
export const FORMAT = 'overlook-backup';
export const FORMAT_VERSION = 1;

export interface ManifestFile {
  path: string;
  size: number;
  sha256: string;
  /** Objects from an S3 bucket: the content type they were stored with, given back to the bucket they are restored into. */
  content_type?: string;
}

export interface Manifest {
  format: typeof FORMAT;
  format_version: number;
  overlook_version: string;
  created_at: string;
  database: {
    kind: 'sqlite' | 'postgres';
    /** Applied migrations, oldest first; the last one is the schema's level. */
    migrations: string[];
    /** PostgreSQL only: `pg_dump --version` of the dump. */
    pg_dump?: string;
  };
  objects: {
    /**
     * Where the objects were: `fs` (files under `<data dir>/objects`) or `s3` (a bucket). Either way they
     * are in the backup under `data/objects/<key>`; a backup of an `s3` store made by an older version holds none.
     */
    store: 'fs' | 's3';
    count: number;
  };
  /** Where the secret key that seals the database's keys was: `file` (in the backup) or `environment` (OVERLOOK_SECRET_KEY, not in it). */
  secret_key: 'file' | 'environment';
  files: ManifestFile[];
}

const isString = (v: unknown): v is string => typeof v === 'string';
const SHA256 = /^[0-9a-f]{64}$/;

/** The manifest of a backup file, or why it is not one this version can restore. */
export function parseManifest(text: string): Manifest | string {
  let m: Partial<Manifest>;
  try {
    m = JSON.parse(text) as Partial<Manifest>;
  } catch {
    return 'its manifest is not JSON';
  }
  if (m?.format !== FORMAT) return 'it is not an Overlook backup (manifest format)';
  if (m.format_version !== FORMAT_VERSION)
    return `it has format version ${String(m.format_version)}; this version of Overlook restores version ${FORMAT_VERSION}`;
  const db = m.database;
  if (!db || (db.kind !== 'sqlite' && db.kind !== 'postgres') || !Array.isArray(db.migrations) || !db.migrations.every(isString)) {
    return 'its manifest does not say which database it holds';
  }
  const files = m.files;
  const fileOk = (f: ManifestFile) =>
    isString(f?.path) &&
    Number.isSafeInteger(f.size) &&
    f.size >= 0 &&
    isString(f.sha256) &&
    SHA256.test(f.sha256) &&
    (f.content_type === undefined || isString(f.content_type));
  if (!Array.isArray(files) || !files.every(fileOk)) return 'its manifest has no valid list of files';
  if (new Set(files.map((f) => f.path)).size !== files.length) return 'its manifest lists a file twice';
  if (!m.objects || (m.objects.store !== 'fs' && m.objects.store !== 's3')) return 'its manifest does not say where the objects were';
  if (m.secret_key !== 'file' && m.secret_key !== 'environment') return 'its manifest does not say where the secret key was';
  return m as Manifest;
}
