import { operations } from '../../contract/index.js';
import { ReverieError } from '../../platform/errors.js';
import { defineCommand } from '../command.js';
import { openService } from '../context.js';
import { printJson } from '../output.js';

export const agentsCommand = defineCommand({
  name: 'agents',
  summary: 'Tokens for local agents (shown once), their scopes, revocation and the access log.',
  usage: [
    { line: 'agents add <name> [--write] [--json]', summary: operations['agents.add'].summary },
    { line: 'agents list [--json]', summary: operations['agents.list'].summary },
    { line: 'agents revoke <name> [--json]', summary: operations['agents.revoke'].summary },
    { line: 'agents log [name] [--limit N] [--json]', summary: operations['agents.log'].summary },
  ],
  flags: {
    write: { type: 'boolean', description: 'agents add: the token may also write (memory.store), not only read' },
    limit: { type: 'number', integer: true, min: 1, max: 2000, default: 50, description: 'agents log: how many entries' },
  },
  async run(ctx, flags) {
    const [action, given] = ctx.positionals;
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
