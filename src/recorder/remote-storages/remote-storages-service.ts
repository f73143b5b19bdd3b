// Remote storages: S3-compatible buckets or HTTP endpoints that every recorded segment, and snapshots
// at an interval when asked, are uploaded to (src/recorder/uploads, docs/recorder.md, Remote storages).
// This keeps and checks the targets, and shows each one's upload queue.
import type { Transaction } from 'kysely';
import type { RecorderDb } from '../db/recorder-db.js';
import type { RecorderSecrets, StorageConfigValues } from '../db/sealed-secrets.js';
import type { RecorderDatabase, RemoteStoragesTable } from '../db/schema.js';
import { ApiError, validation } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';

export interface RemoteStorageInput {
  name?: string;
  type?: 's3' | 'http';
  url?: string;
  config?: {
    bucket?: string;
    region?: string;
    access_key_id?: string;
    secret_access_key?: string;
    path_style?: boolean;
    method?: 'POST' | 'PUT';
    headers?: Record<string, string>;
    recordings?: boolean;
    snapshot_interval_seconds?: number | null;
  };
}

/** A storage as the uploader needs it: where, and its secrets opened. */
export interface StorageTarget {
  id: string;
  name: string;
  type: 's3' | 'http';
  url: string;
  config: StorageConfigValues;
  /** Changes whenever the storage does: a client built for it is rebuilt. */
  updated_at: string;
}

/** A storage's upload queue as the API shows it. */
export interface UploadStatus {
  pending: number;
  last_success_at: string | null;
  last_error: string | null;
  last_error_at: string | null;
}

/** Where the queue's state comes from (the uploads), and whom to tell when the storages change. */
export interface UploadsView {
  status(storageIds: string[]): Promise<Map<string, UploadStatus>>;
  storagesChanged(): void;
}

const NO_UPLOADS: UploadStatus = { pending: 0, last_success_at: null, last_error: null, last_error_at: null };
/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Set by the uploader itself, for every object. */
const OWN_HEADERS = /^(content-type|content-length|host|transfer-encoding|connection|idempotency-key|x-overlook-.*)$/i;
/** S3 bucket names: 3 to 63 lower-case letters, digits, dots and hyphens. */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

const toRecord = (secrets: RecorderSecrets, r: RemoteStoragesTable, uploads: UploadStatus) => {
  const { secret_access_key, headers, ...config } = secrets.openStorageConfig(r.id, r.config);
  return {
    id: r.id,
    name: r.name,
    type: r.type,
    url: r.url,
    // Secrets are write-only: say whether one is set, never what it is.
    config: { ...config, has_secret: Boolean(secret_access_key), header_names: Object.keys(headers ?? {}) },
    uploads,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
};

function checkConfig(type: 's3' | 'http', config: StorageConfigValues): void {
  if (type === 's3') {
    if (!config.bucket) throw validation('config.bucket', 'an s3 storage needs a bucket');
    if (!BUCKET.test(config.bucket)) throw validation('config.bucket', 'must be an S3 bucket name: 3 to 63 lower-case letters, digits, dots and hyphens');
    if (config.region !== undefined && !/^[a-z0-9-]{1,64}$/.test(config.region)) throw validation('config.region', 'must be a region name such as eu-west-1');
    // Keys are always given: the SDK's default chain would read the recorder's environment or a cloud metadata address.
    if (!config.access_key_id) throw validation('config.access_key_id', 'an s3 storage needs an access key id');
    if (!config.secret_access_key) throw validation('config.secret_access_key', 'an s3 storage needs a secret access key');
  }
  for (const [name, value] of Object.entries(config.headers ?? {})) {
    if (!HEADER_NAME.test(name)) throw validation('config.headers', `"${name}" is not an HTTP header name`);
    if (OWN_HEADERS.test(name)) throw validation('config.headers', `"${name}" is set by the recorder for each upload`);
    if (/[\r\n\0]/.test(value)) throw validation('config.headers', `the value of "${name}" has a line break or NUL`);
  }
}

export class RemoteStorages {
  constructor(
    private readonly db: RecorderDb,
    /** Secret keys and header values are stored sealed (db/sealed-secrets.ts). */
    private readonly secrets: RecorderSecrets,
    private readonly uploads: UploadsView,
  ) {}

  private async row(id: string) {
    const row = await this.db.kysely.selectFrom('remote_storages').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw new ApiError('NOT_FOUND', 'Remote storage not found');
    return row;
  }

  private async checked(id: string, input: RemoteStorageInput, current?: RemoteStoragesTable) {
    const name = (input.name ?? current?.name ?? '').trim();
    if (!name) throw validation('name', 'must not be blank');
    const type = input.type ?? (current?.type as 's3' | 'http' | undefined);
    if (!type) throw validation('type', 'is required (s3 or http)');
    const url = input.url ?? current?.url ?? '';
    let parsed: URL;
    try {
      parsed = new URL(url);
      if (!['http:', 'https:'].includes(parsed.protocol)) throw new Error();
    } catch {
      throw validation('url', 'must be an http(s) URL');
    }
    if (parsed.username || parsed.password) throw validation('url', 'must not carry credentials (use config: keys or headers)');
    if (type === 's3' && (parsed.search || parsed.hash)) throw validation('url', 'an s3 endpoint has no query or fragment');
    const config = { ...(current ? this.secrets.openStorageConfig(current.id, current.config) : {}), ...(input.config ?? {}) };
    checkConfig(type, config);
    const clash = await this.db.kysely
      .selectFrom('remote_storages')
      .select('id')
      .where('name', '=', name)
      .where('id', '!=', current?.id ?? '')
      .executeTakeFirst();
    if (clash) throw new ApiError('CONFLICT', `A remote storage named ${name} exists`);
    return { name, type, url, config: this.secrets.sealStorageConfig(id, config) };
  }

  private async records(rows: RemoteStoragesTable[]) {
    const status = await this.uploads.status(rows.map((r) => r.id));
    return rows.map((r) => toRecord(this.secrets, r, status.get(r.id) ?? NO_UPLOADS));
  }

  async list() {
    return this.records(await this.db.kysely.selectFrom('remote_storages').selectAll().orderBy('name').execute());
  }

  async get(id: string) {
    const [record] = await this.records([await this.row(id)]);
    return record!;
  }

  async create(input: RemoteStorageInput) {
    const now = new Date().toISOString();
    const id = newId();
    const row = { id, created_at: now, updated_at: now, ...(await this.checked(id, input)) };
    await this.db.kysely.insertInto('remote_storages').values(row).execute();
    this.uploads.storagesChanged();
    return this.get(id);
  }

  async update(id: string, input: RemoteStorageInput) {
    const current = await this.row(id);
    await this.db.kysely
      .updateTable('remote_storages')
      .set({ ...(await this.checked(id, input, current)), updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .execute();
    this.uploads.storagesChanged();
    return this.get(id);
  }

  /** Deletes the storage and its queue (what was not sent yet is not sent). */
  async remove(id: string) {
    await this.row(id);
    await this.db.kysely.deleteFrom('remote_storages').where('id', '=', id).execute();
    this.uploads.storagesChanged();
  }

  /** Every storage with its secrets opened, for the uploader. */
  async targets(): Promise<StorageTarget[]> {
    const rows = await this.db.kysely.selectFrom('remote_storages').selectAll().orderBy('created_at').execute();
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      type: r.type === 's3' ? 's3' : 'http',
      url: r.url,
      config: this.secrets.openStorageConfig(r.id, r.config),
      updated_at: r.updated_at,
    }));
  }

  /** The storages that take recordings (all but those with `recordings: false`), read inside the caller's transaction. */
  async takingRecordings(trx: Transaction<RecorderDatabase>): Promise<string[]> {
    const rows = await trx.selectFrom('remote_storages').select(['id', 'config']).execute();
    // Only the plain part of the config is read: nothing is unsealed while a segment is indexed.
    return rows.filter((r) => (JSON.parse(r.config) as StorageConfigValues).recordings !== false).map((r) => r.id);
  }
}
