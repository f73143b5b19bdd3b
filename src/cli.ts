#!/usr/bin/env node
// The `overlook` command (contract §1). Each service registers its own commands.
import { Command } from 'commander';
import { registerPlatformCommands } from './platform/cli.js';
import { registerRecorderCommands } from './recorder/cli.js';

const program = new Command('overlook').description('Overlook: construction-site camera platform').version('0.1.0');
program.showHelpAfterError();

registerPlatformCommands(program);
registerRecorderCommands(program);

program.parseAsync(process.argv).catch((err: unknown) => {
  process.stderr.write(`overlook: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
