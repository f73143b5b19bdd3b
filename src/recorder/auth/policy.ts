// Every recorder route declares who may call it, in its own definition (`config.auth`):
//  - public: anyone (login, the OpenAPI document and reference page)
//  - read:   any signed-in recorder user (role user is read-only)
//  - admin:  recorder admins only (every write but event ingestion)
//  - media:  like read, but the token may also come as `?token=` (HLS playlists and segments, snapshots)
//  - webhook: a device's webhook token in `?token=` or `Authorization: Bearer` (event ingestion)
// A route without a declaration makes the server refuse to start.
export type RecorderAuth = 'public' | 'read' | 'admin' | 'media' | 'webhook';

export const RECORDER_AUTH: readonly RecorderAuth[] = ['public', 'read', 'admin', 'media', 'webhook'];
