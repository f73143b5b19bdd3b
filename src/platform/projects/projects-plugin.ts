// Projects: creation and reads; their settings, transfer, deletion and images are in
// project-settings/, above cameras. Registered after cameras, whose service counts a project's cameras.
import { defineFeature } from '../plugins/feature.js';
import { ProjectsService } from './projects-service.js';

declare module '../plugins/feature.js' {
  interface PlatformServices {
    projects: ProjectsService;
  }
}

export const projectsFeature = defineFeature({
  name: 'projects',
  needs: ['db', 'caches', 'cameras'],
  offers: ['projects'],
  build: ({ db, caches, cameras }) => ({ projects: new ProjectsService(db, caches, cameras) }),
});
