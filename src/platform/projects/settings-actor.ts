// The acting person as the settings services need them: who, with which role on the project the access
// layer resolved, and the audit context of the request.
import type { FastifyRequest } from 'fastify';
import type { Role } from '../access/policy.js';
import { auditContext, type AuditContext } from '../audit/audit-log.js';
import { actingUserId, allowedProject } from '../http/principal-helpers.js';

export interface SettingsActor {
  userId: string;
  role: Role;
  audit: AuditContext;
}

export function settingsActor(req: FastifyRequest): SettingsActor {
  return { userId: actingUserId(req), role: allowedProject(req).role, audit: auditContext(req) };
}
