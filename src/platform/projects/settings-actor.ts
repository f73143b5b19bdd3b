// The acting person as the settings services need them: who, with which role on the project the access
// layer resolved, and the audit context of the request.
import type { FastifyRequest } from 'fastify';
import type { Role } from '../access/index.js';
import { auditContext, type AuditContext } from '../audit/index.js';
import { actingUserId, allowedProject } from '../http/index.js';

export interface SettingsActor {
  userId: string;
  role: Role;
  audit: AuditContext;
}

export function settingsActor(req: FastifyRequest): SettingsActor {
  return { userId: actingUserId(req), role: allowedProject(req).role, audit: auditContext(req) };
}
