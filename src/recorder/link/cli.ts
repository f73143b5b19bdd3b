// `overlook recorder link --platform URL --code CODE` and `overlook recorder unlink` (docs/recorder.md,
// Platform link): both work on the data dir alone; a running `recorder serve` notices within seconds.
import { pino } from 'pino';
import type { Command } from 'commander';
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

export function linkCommands(recorder: Command): void {
  recorder
    .command('link')
    .description('Link this recorder to a platform project with a pairing code; `recorder serve` then keeps the link open')
    .requiredOption('--platform <url>', 'the platform’s public URL, e.g. https://overlook.example.com')
    .requiredOption('--code <code>', 'the one-time pairing code from the project’s recorder links')
    .option('--name <name>', 'how the platform lists this recorder (default the host name)')
    .option('--data-dir <dir>', 'data directory (default ./data, or OVERLOOK_DATA_DIR)')
    .action(async (opts) => {
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
    });

  recorder
    .command('unlink')
    .description('Forget the link to the platform (the credential, the schedules and the frames still owed)')
    .option('--data-dir <dir>', 'data directory (default ./data, or OVERLOOK_DATA_DIR)')
    .action(async (opts) => {
      const had = await withLinkParts(opts.dataDir, (parts) => unlink(parts));
      process.stdout.write(had ? 'overlook: recorder unlinked\n' : 'overlook: the recorder was not linked\n');
    });
}
