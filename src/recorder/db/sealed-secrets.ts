// Camera credentials and remote-storage secrets are kept sealed in recorder.sqlite (AES-256-GCM under
// the recorder's secret key, see docs/recorder.md, Hardening), each bound to its row. Rows written
// before sealing existed hold plaintext JSON: they still read, and `sealPlaintextRows` (run at every
// start) seals them; running it again changes nothing.
import { sql } from 'kysely';
import { Sealer } from '../../lib/secrets/seal.js';
import type { RecorderDb } from './recorder-db.js';

export interface DeviceCredentials {
  username?: string;
  password?: string;
}

/** A remote storage's config as the service sees it: plain settings plus its write-only secrets. */
export interface StorageConfigValues {
  bucket?: string;
  region?: string;
  access_key_id?: string;
  secret_access_key?: string;
  headers?: Record<string, string>;
  [other: string]: unknown;
}

/** Stored: the plain settings, and the secrets as one sealed value under `sealed`. */
interface StoredStorageConfig extends StorageConfigValues {
  sealed?: string;
}

export class RecorderSecrets {
  private readonly devices: Sealer;
  private readonly storages: Sealer;
  private readonly link: Sealer;

  constructor(secretKey: Buffer) {
    this.devices = new Sealer(secretKey, 'recorder/device-credentials');
    this.storages = new Sealer(secretKey, 'recorder/remote-storage-secrets');
    this.link = new Sealer(secretKey, 'recorder/platform-link-credential');
  }

  /** The platform link's credential (docs/recorder.md, Platform link), bound to its link id. */
  sealLinkCredential(linkId: string, credential: string): string {
    return this.link.seal(credential, `platform_link/${linkId}`);
  }

  openLinkCredential(linkId: string, sealed: string): string {
    return this.link.open(sealed, `platform_link/${linkId}`);
  }

  sealCredentials(deviceId: string, creds: DeviceCredentials): string {
    return this.devices.seal(JSON.stringify(creds), `devices/${deviceId}`);
  }

  openCredentials(deviceId: string, stored: string): DeviceCredentials {
    return JSON.parse(Sealer.isSealed(stored) ? this.devices.open(stored, `devices/${deviceId}`) : stored) as DeviceCredentials;
  }

  sealStorageConfig(storageId: string, config: StorageConfigValues): string {
    const { secret_access_key, headers, ...plain } = config;
    const secrets = { secret_access_key, headers };
    const stored: StoredStorageConfig = { ...plain, sealed: this.storages.seal(JSON.stringify(secrets), `remote_storages/${storageId}`) };
    return JSON.stringify(stored);
  }

  openStorageConfig(storageId: string, stored: string): StorageConfigValues {
    const { sealed, ...config } = JSON.parse(stored) as StoredStorageConfig;
    if (sealed === undefined) return config;
    const secrets = JSON.parse(this.storages.open(sealed, `remote_storages/${storageId}`)) as Pick<StorageConfigValues, 'secret_access_key' | 'headers'>;
    return { ...config, ...secrets };
  }

  /** Seals every row still holding plaintext secrets; returns how many it sealed. */
  async sealPlaintextRows(db: RecorderDb): Promise<number> {
    let sealed = 0;
    for (const row of await db.kysely.selectFrom('devices').select(['id', 'credentials']).execute()) {
      if (Sealer.isSealed(row.credentials)) continue;
      const credentials = this.sealCredentials(row.id, this.openCredentials(row.id, row.credentials));
      await db.kysely.updateTable('devices').set({ credentials }).where('id', '=', row.id).execute();
      sealed++;
    }
    for (const row of await db.kysely.selectFrom('remote_storages').select(['id', 'config']).execute()) {
      const stored = JSON.parse(row.config) as StoredStorageConfig;
      if (stored.sealed !== undefined && stored.secret_access_key === undefined && stored.headers === undefined) continue;
      const config = this.sealStorageConfig(row.id, this.openStorageConfig(row.id, row.config));
      await db.kysely.updateTable('remote_storages').set({ config }).where('id', '=', row.id).execute();
      sealed++;
    }
    // The plaintext the rows held may still sit in the write-ahead log: fold it in and empty it
    // (secure_delete, set when the database opens, zeroes what the updates replaced).
    if (sealed) await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db.kysely);
    return sealed;
  }
}
