// What other folders of the recorder may use of recording: where a stream's files lie, how ffmpeg
// opens a device's source, and a file's keyframes. The manager, the recorders and storage recovery are
// built by services.ts and server.ts (docs/architecture.md, The recorder's folders).
export { inputArgs } from './ffmpeg-args.js';
export { keyframeTimes } from './ffprobe.js';
export { liveDir } from './segment-layout.js';
