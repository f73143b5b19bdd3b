// The `overlook` command's program (README.md), started by src/cli.ts. Each service registers its own
// commands; a command loads what it runs only when it runs, so `overlook --help` and short commands
// start in a fraction of a second.
import { Command } from 'commander';
import { registerPlatformCommands } from './platform-commands.js';
import { registerBackupCommands } from './backup-commands.js';
import { registerRecorderCommands } from '../recorder/cli.js';
import { registerJwtServiceCommand } from '../lib/services/serve-command.js';
import { registerMcpCommand } from '../mcp/command.js';
import { PACKAGE_VERSION } from '../lib/package-version.js';

const program = new Command('overlook').description('Overlook: construction-site camera platform').version(PACKAGE_VERSION);
program.showHelpAfterError();

registerPlatformCommands(program);
registerBackupCommands(program);
registerRecorderCommands(program);
registerJwtServiceCommand(program, 'ai', 'Run the AI API (platform JWT in Authorization: Bearer or x-api-key)', () =>
  import('../ai/app.js').then((m) => m.buildAiApp),
);
registerMcpCommand(program);
registerJwtServiceCommand(program, 'labs', 'Run the Labs API (platform JWT in Authorization: Bearer)', () =>
  import('../labs/app.js').then((m) => m.buildLabsApp),
);

program.parseAsync(process.argv).catch((err: unknown) => {
  process.stderr.write(`overlook: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
