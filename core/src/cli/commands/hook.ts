import { defineCommand } from '../command.js';
import { HOOK_EVENTS, runHook } from '../hook/hookMain.js';

/**
 * `reverie hook <event>`: what Claude Code and Codex run on their lifecycle events (written into
 * their configuration by `reverie agents connect`). bin/reverie.js starts it without loading the
 * rest of the CLI; this entry gives it its help and runs it the same way.
 */
export const hookCommand = defineCommand({
  name: 'hook',
  summary: "Answer an agent tool's lifecycle hook (JSON on stdin): starting context, matching memory, transcript ingestion. Never fails the agent.",
  usage: [
    { line: `hook <${HOOK_EVENTS.join('|')}> [--tool T] [--token T] [--project KEY]`, summary: 'SessionStart: curated memory and standing intents; UserPromptSubmit: entries whose triggers match; PreCompact, Stop, SessionEnd: the transcript ingested.' },
  ],
  flags: {
    tool: { type: 'string', value: 'T', description: 'the agent tool (its token comes from `reverie agents connect`)' },
    token: { type: 'string', value: 'T', description: 'the agent token (default: env REVERIE_AGENT_TOKEN, then the --tool token)' },
    project: { type: 'string', value: 'KEY', description: "the project key (default: the repository of the hook's cwd)" },
  },
  async run(ctx, flags) {
    const pairs: Array<[string, string | undefined]> = [['--tool', flags.tool], ['--token', flags.token], ['--project', flags.project], ['--workspace', ctx.workspace], ['--data-dir', ctx.dataDir]];
    return runHook([...ctx.positionals, ...pairs.flatMap(([flag, value]) => (value === undefined ? [] : [flag, value]))]);
  },
});
