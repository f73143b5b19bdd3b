// The project:settings endpoints (seed §4.9): 28 here plus the four member endpoints (members/routes.ts).
import type { FastifyInstance } from 'fastify';
import { cameraSettingsRoutes } from '../cameras/camera-settings-routes.js';
import { projectImageRoutes } from '../projects/project-image-routes.js';
import { projectSettingsRoutes } from '../projects/project-settings-routes.js';

export async function settingsRoutes(app: FastifyInstance): Promise<void> {
  await app.register(projectSettingsRoutes);
  await app.register(projectImageRoutes);
  await app.register(cameraSettingsRoutes);
}
