// What other features use of projects: records, reads of the projects tables and the settings actor.
// Other features import this file only (docs/architecture.md, Feature folders as modules).
export {
  countLogos,
  deleteLogo,
  deleteThumbnail,
  insertLogo,
  logoById,
  logosOf,
  objectKeysOf,
  saveThumbnail,
  thumbnailOf,
  updateLogo,
} from './project-images-repository.js';
export { ProjectRecord, isTimeZone, makeExid } from './project-record.js';
export { transferProject } from './project-transfer.js';
export {
  deleteProject,
  projectCount,
  projectExidsOf,
  projectNamesOf,
  projectRefByExid,
  projectRefById,
  projectRefsByExids,
  projectRowByExid,
  projectRowById,
  projectRowByIdOrThrow,
  searchProjects,
  updateProject,
} from './projects-repository.js';
export { LOGO_POSITIONS, PROJECT_STATUSES } from './projects-tables.js';
export type { ProjectLogosTable, ProjectThumbnailsTable, ProjectsTable } from './projects-tables.js';
export { ReadingsPage, ReadingsQuery } from './readings-schemas.js';
export { settingsActor } from './settings-actor.js';
export type { SettingsActor } from './settings-actor.js';
