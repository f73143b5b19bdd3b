// Per-device webhook tokens for event ingestion: created (value shown once), listed, revoked.
import { createHash, randomBytes } from 'node:crypto';
import type { RecorderDb } from '../db/recorder-db.js';
import { ApiError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';

const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

export interface WebhookTokenRecord {
  id: string;
  device_id: string;
  name: string;
  hint: string;
  created_at: string;
  revoked_at: string | null;
}

export class WebhookTokens {
  constructor(private readonly db: RecorderDb) {}

  async create(deviceId: string, name: string): Promise<WebhookTokenRecord & { token: string }> {
    const token = 'owh_' + randomBytes(32).toString('base64url');
    const row = {
      id: newId(),
      device_id: deviceId,
      name,
      token_hash: sha256(token),
      hint: token.slice(0, 10),
      created_at: new Date().toISOString(),
      revoked_at: null,
    };
    await this.db.kysely.insertInto('webhook_tokens').values(row).execute();
    const { token_hash: _h, ...record } = row;
    return { ...record, token };
  }

  list(deviceId: string): Promise<WebhookTokenRecord[]> {
    return this.db.kysely
      .selectFrom('webhook_tokens')
      .select(['id', 'device_id', 'name', 'hint', 'created_at', 'revoked_at'])
      .where('device_id', '=', deviceId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  async revoke(deviceId: string, id: string): Promise<WebhookTokenRecord> {
    const res = await this.db.kysely
      .updateTable('webhook_tokens')
      .set({ revoked_at: new Date().toISOString() })
      .where('id', '=', id)
      .where('device_id', '=', deviceId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    const row = await this.db.kysely
      .selectFrom('webhook_tokens')
      .select(['id', 'device_id', 'name', 'hint', 'created_at', 'revoked_at'])
      .where('id', '=', id)
      .where('device_id', '=', deviceId)
      .executeTakeFirst();
    if (!row) throw new ApiError('NOT_FOUND', 'Webhook token not found');
    if (Number(res.numUpdatedRows) === 0 && row.revoked_at === null) throw new ApiError('NOT_FOUND', 'Webhook token not found');
    return row;
  }

  async accepts(deviceId: string, token: string): Promise<boolean> {
    if (!token.startsWith('owh_') || token.length > 100) return false;
    const row = await this.db.kysely
      .selectFrom('webhook_tokens')
      .select('id')
      .where('token_hash', '=', sha256(token))
      .where('device_id', '=', deviceId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return row !== undefined;
  }
}
