// The key record (docs/access-model.md, API keys), and how its status is derived.
import { Type, type Static } from 'typebox';
import type { ApiKeysTable } from './api-keys-tables.js';

const KEY_STATUSES = ['valid', 'expired', 'revoked'] as const;
export type KeyStatus = (typeof KEY_STATUSES)[number];

export const ApiKeyRecord = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    hint: Type.String({ description: 'The first characters of the value, to recognise the key' }),
    expires_at: Type.String({ format: 'date-time' }),
    projects: Type.Array(Type.String(), { description: 'Exids of the projects the key may touch' }),
    scopes: Type.Array(Type.String()),
    status: Type.Union([Type.Literal('valid'), Type.Literal('expired'), Type.Literal('revoked')]),
    last_used_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    created_at: Type.String({ format: 'date-time' }),
    rate_limit: Type.Union([Type.Object({ requests: Type.Integer(), window_seconds: Type.Integer() }), Type.Null()], {
      description: 'Requests the key may make per window; null for no limit of its own',
    }),
    allowed_ips: Type.Array(Type.String(), { description: 'CIDRs the key may be used from; empty for anywhere' }),
  },
  { $id: 'ApiKeyRecord' },
);
export type ApiKeyRecord = Static<typeof ApiKeyRecord>;

export const ApiKeyWithValue = Type.Intersect([
  ApiKeyRecord,
  Type.Object({ key: Type.String({ description: 'The key value. Shown this once; only its hash is stored.' }) }),
]);

export function statusOf(row: Pick<ApiKeysTable, 'revoked_at' | 'expires_at'>, now = Date.now()): KeyStatus {
  if (row.revoked_at) return 'revoked';
  return Date.parse(row.expires_at) <= now ? 'expired' : 'valid';
}

export function toApiKeyRecord(row: ApiKeysTable, projectExids: string[]): ApiKeyRecord {
  return {
    id: row.id,
    name: row.name,
    hint: row.key_hint,
    expires_at: row.expires_at,
    projects: projectExids,
    scopes: JSON.parse(row.scopes) as string[],
    status: statusOf(row),
    last_used_at: row.last_used_at,
    created_at: row.created_at,
    rate_limit:
      row.rate_limit_requests !== null && row.rate_limit_window_seconds !== null
        ? { requests: row.rate_limit_requests, window_seconds: row.rate_limit_window_seconds }
        : null,
    allowed_ips: row.allowed_ips ? (JSON.parse(row.allowed_ips) as string[]) : [],
  };
}
