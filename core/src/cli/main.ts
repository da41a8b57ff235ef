import type { CliCommand } from './command.js';
import { parseCommandLine } from './commandLine.js';
import { runCommand } from './runCommand.js';
import { packageVersion } from '../platform/packageRoot.js';
import { agentsCommand } from './commands/agents.js';
import { configCommand } from './commands/config.js';
import { daemonCommand } from './commands/daemon.js';
import { dreamCommand } from './commands/dream.js';
import { forgetCommand } from './commands/forget.js';
import { getCommand } from './commands/get.js';
import { graphCommand } from './commands/graph.js';
import { hookCommand } from './commands/hook.js';
import { importCommand } from './commands/import.js';
import { indexCommand } from './commands/index.js';
import { logsCommand } from './commands/logs.js';
import { mcpCommand } from './commands/mcp.js';
import { modelsCommand } from './commands/models.js';
import { searchCommand } from './commands/search.js';
import { notesCommand } from './commands/notes.js';
import { serveCommand } from './commands/serve.js';
import { sessionsCommand } from './commands/sessions.js';
import { statusCommand } from './commands/status.js';
import { whyCommand } from './commands/why.js';

/** Every command, in the order `reverie --help` lists them. A new command is one import and one entry. */
export const COMMANDS: readonly CliCommand[] = [
  statusCommand,
  indexCommand,
  searchCommand,
  notesCommand,
  getCommand,
  graphCommand,
  configCommand,
  serveCommand,
  sessionsCommand,
  importCommand,
  whyCommand,
  forgetCommand,
  modelsCommand,
  dreamCommand,
  daemonCommand,
  agentsCommand,
  mcpCommand,
  hookCommand,
  logsCommand,
];

export async function main(argv: string[]): Promise<number> {
  const line = parseCommandLine(argv, COMMANDS);
  if (line.kind === 'help') {
    process.stdout.write(line.text);
    return 0;
  }
  if (line.kind === 'version') {
    process.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  if (line.kind === 'fail') {
    process.stderr.write(line.text);
    return 1;
  }
  return runCommand(line);
}
