// Leases on background work (docs/deploy.md, Background work): one row per unit of work a node holds
// (`camera:<id>`, `retention`, `media:<id>`, `recorder-node:<node id>`), until `expires_at` unless renewed.
import { nullable, table, text, timestamp, type TablesType } from '../../lib/db/table.js';

const workLeases = table({
  /** The unit of work. */
  name: text(),
  /** The node holding it (a random id per process start). */
  holder: text(),
  /** ISO-8601 UTC, by the database's clock: after it, any node may take the lease; a lease term later it is swept. */
  expires_at: timestamp(),
  /** Where the holder can be reached by the other nodes (its OVERLOOK_NODE_URL), null when it does not listen. */
  holder_url: nullable(text()),
});

export const workTables = { work_leases: workLeases };
export type WorkTables = TablesType<typeof workTables>;
