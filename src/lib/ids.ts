// Row ids: UUIDv7, time-ordered (and monotonic within a process), so that "newest first" lists
// ordered by (created_at, id) stay in creation order even when two rows share a millisecond.
import { v7 } from 'uuid';

export const newId = (): string => v7();
