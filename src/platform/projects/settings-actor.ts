// The acting person as the settings services need them: who, with which role on the project the access
// layer resolved, and the audit context of the request.
import type { FastifyRequest } from 'fastify';
import { auditContext } from '../audit/audit-log.js';
import { actingUserId, allowedProject } from '../http/principal-helpers.js';
import type { SettingsActor } from './project-settings-service.js';

export function settingsActor(req: FastifyRequest): SettingsActor {
  return { userId: actingUserId(req), role: allowedProject(req).role, audit: auditContext(req) };
}
