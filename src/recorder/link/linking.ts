// Linking and unlinking, the same from the CLI (`overlook recorder link` / `unlink`) and from
// `POST` / `DELETE /api/link`.
import { hostname } from 'node:os';
import type { Dispatcher } from 'undici';
import { ApiError } from '../../lib/errors.js';
import type { LinkStore } from './link-store.js';
import type { Outbox } from './outbox.js';
import { pair, platformBase } from './pairing.js';

export interface LinkParts {
  store: LinkStore;
  outbox: Outbox;
  dispatcher: Dispatcher;
}

/** Exchanges the code and keeps the new link (sealed), in place of a revoked one; a live link must be unlinked first. */
export async function linkWithCode(
  parts: LinkParts,
  platformUrl: string,
  code: string,
  recorderName?: string,
): Promise<{ linkId: string; projectExid: string }> {
  const base = platformBase(platformUrl);
  const current = await parts.store.get();
  if (current && !current.revokedAt) throw new ApiError('CONFLICT', `The recorder is already linked to ${current.platformUrl}; unlink it first`);
  const answer = await pair(base, { code: code.trim(), recorder_name: (recorderName ?? hostname()).slice(0, 200) || 'recorder' }, parts.dispatcher);
  await parts.outbox.clear();
  await parts.store.save(base, answer);
  return { linkId: answer.link_id, projectExid: answer.project_exid };
}

/** Forgets the link, its schedules and what was owed to it; returns whether there was one. */
export async function unlink(parts: Pick<LinkParts, 'store' | 'outbox'>): Promise<boolean> {
  const had = await parts.store.remove();
  await parts.outbox.clear();
  return had;
}
