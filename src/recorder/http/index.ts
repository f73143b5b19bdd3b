// What the recorder's media routes share: the stream and token parameters, client times, binary
// answers. Other folders import this file only (docs/architecture.md, The recorder's folders).
export { Binary, callerToken, isoParam, StreamQuery, TokenQuery, timeParam } from './media.js';
