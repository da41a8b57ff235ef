import { parseCommandLine } from './commandLine.js';
import { searchCommand } from './commands/search.js';
import { runCommand } from './runCommand.js';

/**
 * `reverie search` that no host answered (bin/reverie.js runs it): the command line of that one
 * command, so the other commands' modules, and the engine most of them open, are not loaded.
 * Anything but a search to run (help, a bad flag) goes to the whole command line, which says it
 * as it always does.
 */
export async function main(argv: string[]): Promise<number> {
  const line = parseCommandLine(argv, [searchCommand]);
  if (line.kind !== 'run') return (await import('./main.js')).main(argv);
  return runCommand(line);
}
