import { ReverieError } from '../../platform/errors.js';
import { openService, type CliContext } from '../context.js';
import { printJson } from '../output.js';

const USAGE = 'Usage: reverie agents add <name> [--write] [--json] | agents list [--json] | agents revoke <name> | agents log [name] [--limit N] [--json]';

/** `reverie agents …`: tokens for local agents (shown once), scopes, revocation, the access log. */
export async function agentsCommand(ctx: CliContext): Promise<number> {
  const [action, given] = ctx.positionals;
  if (!action || !['add', 'list', 'revoke', 'log'].includes(action)) throw new ReverieError('invalid-input', USAGE);
  const name = given ?? '';
  if ((action === 'add' || action === 'revoke') && !name) throw new ReverieError('invalid-input', `Give the agent's name. ${USAGE}`);
  const service = await openService(ctx);
  try {
    if (action === 'add') {
      const added = await service.invoke('agents.add', { name, write: ctx.options.write });
      if (ctx.options.json) printJson(added);
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
      if (ctx.options.json) printJson(agent);
      else process.stdout.write(`Revoked "${agent.name}": its token is refused from now on.\n`);
      return 0;
    }
    if (action === 'list') {
      const { agents, socket } = await service.invoke('agents.list', {});
      // This one-shot process serves no socket; a running host does.
      if (ctx.options.json) printJson({ agents, socket: { ...socket, listening: service.lock.readHolder() !== null } });
      else {
        if (agents.length === 0) process.stdout.write('No agents yet. Add one with `reverie agents add <name> [--write]`.\n');
        for (const a of agents) {
          process.stdout.write(`${a.name.padEnd(24)} ${a.scopes.join('+').padEnd(11)} ${a.revokedAt ? `revoked ${a.revokedAt}` : `${a.calls} calls, last ${a.lastUsedAt ?? 'never'}`}\n`);
        }
        process.stdout.write(`Agent socket: ${socket.path}\n`);
      }
      return 0;
    }
    const limit = ctx.options.limit === undefined ? 50 : Number(ctx.options.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 2000) throw new ReverieError('invalid-input', `--limit must be a whole number from 1 to 2000 (got "${ctx.options.limit}").`);
    const { entries } = await service.invoke('agents.log', { ...(name ? { agent: name } : {}), limit });
    if (ctx.options.json) printJson(entries);
    else for (const e of entries) process.stdout.write(`${e.at}  ${e.agent.padEnd(16)} ${e.method.padEnd(18)} ${e.ok ? `${e.results ?? '-'} results` : `error: ${e.error}`}  ${e.detail ?? ''}\n`);
    return 0;
  } finally {
    await service.close();
  }
}
