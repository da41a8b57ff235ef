import path from 'node:path';
import { ConnectableTool, operations, type ConnectedFile } from '../../contract/index.js';
import { ReverieError } from '../../platform/errors.js';
import { defineCommand } from '../command.js';
import { openService } from '../context.js';
import { printJson } from '../output.js';
import type { CliContext } from '../context.js';

const TOOLS = ConnectableTool.options.join('|');

export const agentsCommand = defineCommand({
  name: 'agents',
  summary: 'Tokens for local agents (shown once), their scopes, revocation and the access log.',
  usage: [
    { line: 'agents add <name> [--write] [--json]', summary: operations['agents.add'].summary },
    { line: 'agents list [--json]', summary: operations['agents.list'].summary },
    { line: 'agents revoke <name> [--json]', summary: operations['agents.revoke'].summary },
    { line: 'agents log [name] [--limit N] [--json]', summary: operations['agents.log'].summary },
    { line: `agents connect <${TOOLS}> [--scope user|project] [--project-dir DIR] [--read-only] [--dry-run] [--json]`, summary: operations['agents.connect'].summary },
    { line: `agents disconnect <${TOOLS}> [--scope user|project] [--project-dir DIR] [--dry-run] [--json]`, summary: operations['agents.disconnect'].summary },
    { line: 'agents proposals [--all] [--accept ID | --reject ID] [--json]', summary: operations['agents.proposals'].summary },
  ],
  flags: {
    write: { type: 'boolean', description: 'agents add: the token may also write (memory.store), not only read' },
    limit: { type: 'number', integer: true, min: 1, max: 2000, default: 50, description: 'agents log: how many entries' },
    scope: { type: 'string', choices: ['user', 'project'], description: "agents connect/disconnect: Claude Code's user config (~/.claude.json, default) or the project's .mcp.json" },
    projectDir: { type: 'string', value: 'DIR', description: 'agents connect/disconnect --scope project: the project folder (default: the current folder)' },
    readOnly: { type: 'boolean', description: 'agents connect: a token that can only search and read' },
    dryRun: { type: 'boolean', description: 'agents connect/disconnect: print the diff of each file, change nothing' },
    all: { type: 'boolean', description: 'agents proposals: also the decided ones' },
    accept: { type: 'string', value: 'ID', description: "agents proposals: accept an agent's proposed correction (your line is rewritten)" },
    reject: { type: 'string', value: 'ID', description: "agents proposals: reject an agent's proposed correction" },
  },
  async run(ctx, flags) {
    const [action, given] = ctx.positionals;
    if (action === 'connect' || action === 'disconnect') return connectOrDisconnect(ctx, action, given, flags);
    if (action === 'proposals') return proposals(ctx, flags);
    if (action !== 'add' && action !== 'list' && action !== 'revoke' && action !== 'log') throw new ReverieError('invalid-input', ctx.usage);
    const name = given ?? '';
    if ((action === 'add' || action === 'revoke') && !name) throw new ReverieError('invalid-input', `Give the agent's name. ${ctx.usage}`);
    const service = await openService(ctx);
    try {
      if (action === 'add') {
        const added = await service.invoke('agents.add', { name, write: flags.write });
        if (ctx.json) printJson(added);
        else {
          process.stdout.write(`Agent "${added.name}" (${added.scopes.join(' + ')}). Its token, shown only this once:\n\n  ${added.token}\n\n`);
          const { mcpLaunch } = await service.invoke('agents.list', {});
          const command = [mcpLaunch.command, ...mcpLaunch.args].map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ');
          process.stdout.write(`Give it to the agent as REVERIE_AGENT_TOKEN, e.g. for Claude Code:\n  claude mcp add reverie --env REVERIE_AGENT_TOKEN=${added.token} -- ${command}\n`);
        }
        return 0;
      }
      if (action === 'revoke') {
        const agent = await service.invoke('agents.revoke', { name });
        if (ctx.json) printJson(agent);
        else process.stdout.write(`Revoked "${agent.name}": its token is refused from now on.\n`);
        return 0;
      }
      if (action === 'list') {
        const { agents, socket } = await service.invoke('agents.list', {});
        // This one-shot process serves no socket; a running host does.
        if (ctx.json) printJson({ agents, socket: { ...socket, listening: service.lock.readHolder() !== null } });
        else {
          if (agents.length === 0) process.stdout.write('No agents yet. Add one with `reverie agents add <name> [--write]`.\n');
          for (const a of agents) {
            process.stdout.write(`${a.name.padEnd(24)} ${a.scopes.join('+').padEnd(11)} ${a.revokedAt ? `revoked ${a.revokedAt}` : `${a.calls} calls, last ${a.lastUsedAt ?? 'never'}`}\n`);
          }
          process.stdout.write(`Agent socket: ${socket.path}\n`);
        }
        return 0;
      }
      const { entries } = await service.invoke('agents.log', { ...(name ? { agent: name } : {}), limit: flags.limit });
      if (ctx.json) printJson(entries);
      else for (const e of entries) process.stdout.write(`${e.at}  ${e.agent.padEnd(16)} ${e.method.padEnd(18)} ${e.ok ? `${e.results ?? '-'} results` : `error: ${e.error}`}  ${e.detail ?? ''}\n`);
      return 0;
    } finally {
      await service.close();
    }
  },
});

interface ConnectFlags {
  scope: 'user' | 'project' | undefined;
  projectDir: string | undefined;
  readOnly: boolean;
  dryRun: boolean;
}

async function connectOrDisconnect(ctx: CliContext, action: 'connect' | 'disconnect', given: string | undefined, flags: ConnectFlags): Promise<number> {
  const tool = ConnectableTool.safeParse(given);
  if (!tool.success) throw new ReverieError('invalid-input', `Name the agent tool to ${action}: ${ConnectableTool.options.join(', ')}. ${ctx.usage}`);
  const scope = flags.scope ?? 'user';
  const projectDir = scope === 'project' ? path.resolve(flags.projectDir ?? process.cwd()) : undefined;
  const service = await openService(ctx);
  try {
    if (action === 'connect') {
      const result = await service.invoke('agents.connect', { tool: tool.data, scope, projectDir, write: !flags.readOnly, dryRun: flags.dryRun });
      if (ctx.json) printJson(result);
      else {
        printFiles(result.files, result.dryRun);
        for (const note of result.notes) process.stdout.write(`${note}\n`);
        process.stdout.write(result.dryRun ? 'Dry run: nothing was changed.\n' : `Connected ${tool.data} as agent "${result.agent}". Restart it to pick up the change.\n`);
      }
      return 0;
    }
    const result = await service.invoke('agents.disconnect', { tool: tool.data, scope, projectDir, dryRun: flags.dryRun });
    if (ctx.json) printJson(result);
    else {
      printFiles(result.files, result.dryRun);
      process.stdout.write(result.dryRun ? 'Dry run: nothing was changed.\n' : `Disconnected ${tool.data}${result.revoked ? '; its token is revoked' : ''}.\n`);
    }
    return 0;
  } finally {
    await service.close();
  }
}

function printFiles(files: readonly ConnectedFile[], dryRun: boolean): void {
  for (const file of files) {
    process.stdout.write(`${file.path}: ${dryRun && file.action !== 'unchanged' && file.action !== 'missing' ? `would be ${file.action}` : file.action}${file.backup ? ` (backup ${file.backup})` : ''}\n`);
    if (file.diff) process.stdout.write(file.diff);
  }
}

async function proposals(ctx: CliContext, flags: { all: boolean; accept: string | undefined; reject: string | undefined }): Promise<number> {
  if (flags.accept && flags.reject) throw new ReverieError('invalid-input', 'Give --accept or --reject, not both.');
  const service = await openService(ctx);
  try {
    const decided = flags.accept ?? flags.reject;
    if (decided) {
      const proposal = await service.invoke('agents.decideProposal', { id: decided, decision: flags.accept ? 'accept' : 'reject' });
      if (ctx.json) printJson(proposal);
      else process.stdout.write(`${proposal.id}: ${proposal.status}${proposal.note ? ` (${proposal.note})` : ''}\n`);
      return 0;
    }
    const { proposals: list } = await service.invoke('agents.proposals', { includeDecided: flags.all });
    if (ctx.json) printJson(list);
    else if (list.length === 0) process.stdout.write('No proposals from agents.\n');
    else for (const p of list) process.stdout.write(`${p.id} (${p.status}) by ${p.agent}, ${p.path} line ${p.line}:\n  - ${p.before}\n  + ${p.after}\n`);
    return 0;
  } finally {
    await service.close();
  }
}
