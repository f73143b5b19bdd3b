// `overlook recorder link --platform URL --code CODE` and `overlook recorder unlink` (docs/recorder.md,
// Platform link): both work on the data dir alone; a running `recorder serve` notices within seconds.
import type { Command } from 'commander';

const actions = () => import('./cli-actions.js');

export function linkCommands(recorder: Command): void {
  recorder
    .command('link')
    .description('Link this recorder to a platform project with a pairing code; `recorder serve` then keeps the link open')
    .requiredOption('--platform <url>', 'the platform’s public URL, e.g. https://overlook.example.com')
    .requiredOption('--code <code>', 'the one-time pairing code from the project’s recorder links')
    .option('--name <name>', 'how the platform lists this recorder (default the host name)')
    .option('--data-dir <dir>', 'data directory (default ./data, or OVERLOOK_DATA_DIR)')
    .action(async (opts) => (await actions()).linkAction(opts));

  recorder
    .command('unlink')
    .description('Forget the link to the platform (the credential, the schedules and the frames still owed)')
    .option('--data-dir <dir>', 'data directory (default ./data, or OVERLOOK_DATA_DIR)')
    .action(async (opts) => (await actions()).unlinkAction(opts));
}
