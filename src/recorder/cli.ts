// Recorder commands (`overlook recorder …`). Filled in by the recorder feature.
import type { Command } from 'commander';

export function registerRecorderCommands(program: Command): void {
  program.command('recorder').description('On-device recorder (see docs/recorder.md)');
}
