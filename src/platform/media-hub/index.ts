// What other features use of the media hub: its service.
// Other features import this file only (docs/architecture.md, Feature folders as modules).
export { MediaHubService } from './media-hub-service.js';
export { requesterOfMediaItem } from './media-items-repository.js';
