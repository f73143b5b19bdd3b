// What `overlook recorder link` and `unlink` do (cli.ts defines them), loaded only when one of them runs.
import { pino } from 'pino';
import { ApiError } from '../../lib/errors.js';
import { recorderConfig } from '../config.js';
import { openRecorderDb } from '../db/recorder-db.js';
import { RecorderSecrets } from '../db/sealed-secrets.js';
import { LinkStore } from './link-store.js';
import { Outbox } from './outbox.js';
import { linkDispatcher } from './pairing.js';
import { linkWithCode, unlink } from './linking.js';
import { join } from 'node:path';

async function withLinkParts<T>(
  dataDir: string | undefined,
  run: (parts: { store: LinkStore; outbox: Outbox; config: ReturnType<typeof recorderConfig> }) => Promise<T>,
) {
  const config = recorderConfig({ dataDir });
  const db = await openRecorderDb(config.dataDir);
  try {
    const log = pino({ level: config.logLevel });
    const outbox = new Outbox(db, join(config.dataDir, 'link-outbox'), config.linkBacklogBytes, log);
    return await run({ store: new LinkStore(db, new RecorderSecrets(config.secretKey)), outbox, config });
  } finally {
    await db.close();
  }
}

export async function linkAction(opts: { platform: string; code: string; name?: string; dataDir?: string }): Promise<void> {
  try {
    const linked = await withLinkParts(opts.dataDir, ({ store, outbox, config }) =>
      linkWithCode({ store, outbox, dispatcher: linkDispatcher(config.proxy) }, opts.platform, opts.code, opts.name),
    );
    process.stdout.write(`overlook: recorder linked to project ${linked.projectExid} (link ${linked.linkId})\n`);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    process.stderr.write(`overlook: linking failed: ${err.message}\n`);
    process.exitCode = err.status < 500 ? 2 : 3;
  }
}

export async function unlinkAction(opts: { dataDir?: string }): Promise<void> {
  const had = await withLinkParts(opts.dataDir, (parts) => unlink(parts));
  process.stdout.write(had ? 'overlook: recorder unlinked\n' : 'overlook: the recorder was not linked\n');
}
