// What other features use of progress photos: the schedules and when each is due (the mail feature sends them).
// Other features import this file only (docs/architecture.md, Feature folders as modules).
export { activeProgressPhotos, progressPhotoById } from './progress-photos-repository.js';
export { nextSendAt, type Weekday } from './schedule.js';
