// The session activities log: sign-ins, failed sign-ins, sign-outs and revocations, per person.
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../lib/db/index.js';
import { newId } from '../../lib/ids.js';

export type ActivityAction = 'login' | 'login_failed' | 'logout' | 'session_revoked';

export async function logActivity(db: Db, req: FastifyRequest, userId: string, action: ActivityAction, sessionId: string | null): Promise<void> {
  const ua = req.headers['user-agent'];
  await db.kysely
    .insertInto('session_activities')
    .values({
      id: newId(),
      user_id: userId,
      session_id: sessionId,
      action,
      ip: req.ip ?? null,
      user_agent: typeof ua === 'string' ? ua.slice(0, 512) : null,
      created_at: new Date().toISOString(),
    })
    .execute();
}
