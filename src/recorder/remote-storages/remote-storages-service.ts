// Remote storages: S3 or HTTP targets that snapshots and clips can be sent to. This keeps and checks
// the targets; the uploads themselves are not built yet (see docs/recorder.md).
import type { RecorderDb } from '../db/recorder-db.js';
import type { RecorderSecrets } from '../db/sealed-secrets.js';
import type { RemoteStoragesTable } from '../db/schema.js';
import { ApiError, validation } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';

export interface RemoteStorageInput {
  name?: string;
  type?: 's3' | 'http';
  url?: string;
  config?: { bucket?: string; region?: string; access_key_id?: string; secret_access_key?: string; headers?: Record<string, string> };
}

const toRecord = (secrets: RecorderSecrets, r: RemoteStoragesTable) => {
  const { secret_access_key, headers, ...config } = secrets.openStorageConfig(r.id, r.config);
  return {
    id: r.id,
    name: r.name,
    type: r.type,
    url: r.url,
    // Secrets are write-only: say whether one is set, never what it is.
    config: { ...config, has_secret: Boolean(secret_access_key), header_names: Object.keys(headers ?? {}) },
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
};

export class RemoteStorages {
  constructor(
    private readonly db: RecorderDb,
    /** Secret keys and header values are stored sealed (db/sealed-secrets.ts). */
    private readonly secrets: RecorderSecrets,
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
    try {
      if (!['http:', 'https:'].includes(new URL(url).protocol)) throw new Error();
    } catch {
      throw validation('url', 'must be an http(s) URL');
    }
    const config = { ...(current ? this.secrets.openStorageConfig(current.id, current.config) : {}), ...(input.config ?? {}) };
    if (type === 's3' && !config.bucket) throw validation('config.bucket', 'an s3 storage needs a bucket');
    const clash = await this.db.kysely
      .selectFrom('remote_storages')
      .select('id')
      .where('name', '=', name)
      .where('id', '!=', current?.id ?? '')
      .executeTakeFirst();
    if (clash) throw new ApiError('CONFLICT', `A remote storage named ${name} exists`);
    return { name, type, url, config: this.secrets.sealStorageConfig(id, config) };
  }

  async list() {
    return (await this.db.kysely.selectFrom('remote_storages').selectAll().orderBy('name').execute()).map((r) => toRecord(this.secrets, r));
  }

  async get(id: string) {
    return toRecord(this.secrets, await this.row(id));
  }

  async create(input: RemoteStorageInput) {
    const now = new Date().toISOString();
    const id = newId();
    const row = { id, created_at: now, updated_at: now, ...(await this.checked(id, input)) };
    await this.db.kysely.insertInto('remote_storages').values(row).execute();
    return toRecord(this.secrets, row);
  }

  async update(id: string, input: RemoteStorageInput) {
    const current = await this.row(id);
    await this.db.kysely
      .updateTable('remote_storages')
      .set({ ...(await this.checked(id, input, current)), updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .execute();
    return this.get(id);
  }

  async remove(id: string) {
    await this.row(id);
    await this.db.kysely.deleteFrom('remote_storages').where('id', '=', id).execute();
  }
}
