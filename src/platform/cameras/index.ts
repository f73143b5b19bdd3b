// What other features use of cameras: the service, connections, and reads of the cameras tables.
// Other features import this file only (docs/architecture.md, Feature folders as modules).
export { upstreamError } from './camera-errors.js';
export type { CameraRow } from './camera-record.js';
export {
  adminCameraByExid,
  cameraCount,
  cameraCountsOf,
  cameraOfProject,
  cameraPositionsOf,
  cameraRefByExid,
  cameraRefsByIds,
  cameraRefsOf,
  cameraSettingsExtras,
  cameraSummariesOf,
  camerasOfProject,
  connectionsOf,
  deleteCamera,
  firstPlacedCamera,
  projectCamerasAmong,
  projectIdOfCamera,
  searchCameras,
  updateCamera,
} from './cameras-repository.js';
export { CamerasService, checkConnection } from './cameras-service.js';
export type { CamerasTable } from './cameras-tables.js';
export type { CameraConnection, ConnectionDetails, HealthResult, Snapshot } from './connection/camera-connection.js';
export { CameraConnections } from './connection/connections.js';
export { simulatedSceneAt } from './connection/simulated-camera.js';
