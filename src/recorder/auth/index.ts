// What other folders of the recorder may use of auth: the vocabulary of route declarations. The hook
// itself is registered by app.ts (docs/architecture.md, The recorder's folders).
export type { RecorderAuth } from './policy.js';
