// What other folders of the recorder may use of HLS: the live playlist's segments, how fresh they are,
// and the playlist itself (docs/architecture.md, The recorder's folders).
export { LIVE_SEGMENT, LIVE_STALE_MS, livePlaylistWith } from './live-playlist.js';
