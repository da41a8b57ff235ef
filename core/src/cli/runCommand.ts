import { exitCodeFor, ReverieError } from '../platform/errors.js';
import type { CommandLine } from './commandLine.js';
import { createContext } from './context.js';
import { formatUsage } from './help.js';

/** Runs the command a command line named; a failure is one line on stderr and the exit code its kind gives. */
export async function runCommand(line: Extract<CommandLine, { kind: 'run' }>): Promise<number> {
  const { command } = line;
  try {
    return await command.run(createContext(line.global, line.positionals, formatUsage(command)), line.flags);
  } catch (error) {
    const code = exitCodeFor(error);
    const message = error instanceof ReverieError ? error.message : `Internal error: ${(error as Error)?.stack ?? String(error)}`;
    process.stderr.write(`reverie ${command.name}: ${message}\n`);
    return code;
  }
}
