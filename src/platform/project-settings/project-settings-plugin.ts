// Project settings: update, transfer, deletion (running every feature's deletion hooks), leaving, the
// role ladder, the settings history, and the project's logos and thumbnail. A folder apart from
// projects/ because deleting a project stops its cameras (camera-lifecycle), which import projects.
import { defineFeature } from '../plugins/feature.js';
import { ProjectImagesService } from './project-images-service.js';
import { ProjectSettingsService } from './project-settings-service.js';

declare module '../plugins/feature.js' {
  interface PlatformServices {
    projectSettings: ProjectSettingsService;
    /** Project logos and the project thumbnail. */
    projectImages: ProjectImagesService;
  }
}

export const projectSettingsFeature = defineFeature({
  name: 'project-settings',
  needs: ['config', 'db', 'caches', 'audit', 'notifications', 'deletionHooks', 'cameraTeardown', 'storage', 'snapshotReader', 'cameras'],
  offers: ['projectSettings', 'projectImages'],
  build: ({ config, db, caches, audit, notifications, deletionHooks, cameraTeardown, storage, snapshotReader, cameras }) => {
    const projectImages = new ProjectImagesService(db, config, { storage, snapshotReader, cameras });
    deletionHooks.onProjectDelete('project logos and thumbnail', (project) => projectImages.removeProjectObjects(project.id));
    return { projectImages, projectSettings: new ProjectSettingsService(db, caches, audit, notifications, deletionHooks, cameraTeardown) };
  },
});
