// What other folders of the recorder may use of remote storages: the service, a storage as the
// uploader sends to it, and the upload status it shows (docs/architecture.md, The recorder's folders).
export type { RemoteStorages, StorageTarget, UploadStatus, UploadsView } from './remote-storages-service.js';
