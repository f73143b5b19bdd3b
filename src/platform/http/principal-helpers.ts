// Small helpers handlers use to read what the access layer decided.
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../lib/errors.js';
import type { ProjectRef, Role } from '../access/index.js';

/** The person acting: the signed-in user, or the key's owner. */
export function actingUserId(req: FastifyRequest): string {
  const p = req.principal;
  if (p.kind === 'anonymous') throw new ApiError('UNAUTHORIZED', 'A credential is required');
  return p.userId;
}

/** The project the access layer resolved and allowed, with the actor's role on it. */
export function allowedProject(req: FastifyRequest): { project: ProjectRef; role: Role } {
  if (!req.project || !req.role) throw new ApiError('NOT_FOUND', 'Project not found');
  return { project: req.project, role: req.role };
}
