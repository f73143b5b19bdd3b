// What other folders of the recorder may use of events: the LPR event a plate reader stores
// (docs/architecture.md, The recorder's folders).
export type { LprInput } from './events-service.js';
