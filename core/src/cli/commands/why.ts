import { operations, type ProvenanceChain } from '../../contract/index.js';
import { ReverieError } from '../../platform/errors.js';
import { defineCommand } from '../command.js';
import { openService } from '../context.js';
import { printJson } from '../output.js';

/** `reverie why <path:line | chunk:N>`: where a memory came from. */
export const whyCommand = defineCommand({
  name: 'why',
  summary: operations['provenance.get'].summary,
  usage: ['why <path:line | path:start-end | chunk:N> [--json]'],
  flags: {},
  async run(ctx) {
    const ref = ctx.positionals.join(' ').trim();
    if (!ref) throw new ReverieError('invalid-input', ctx.usage);
    const service = await openService(ctx);
    try {
      const chain = await service.invoke('provenance.get', { ref });
      if (ctx.json) printJson(chain);
      else process.stdout.write(formatChain(chain));
      return 0;
    } finally {
      await service.close();
    }
  },
});

function formatChain(c: ProvenanceChain): string {
  const out = [
    `${c.path}:${c.startLine}-${c.endLine}  (${c.source})`,
    `  origin       ${c.origin}${c.sessionKind ? ` · ${c.sessionKind} session` : ''}`,
    `  observed     ${c.observedAt ?? 'unknown'}`,
  ];
  for (const l of c.lines) {
    if (l.writtenBy) out.push(`  line ${l.line}: ${l.origin}, written by ${l.writtenBy.via}${l.writtenBy.actor ? ` (${l.writtenBy.actor})` : ''} at ${l.writtenBy.writtenAt}`);
  }
  if (c.lines.length > 0 && c.lines.every((l) => !l.writtenBy)) out.push('  written by   you (no line was written by Reverie or an agent)');
  if (c.transcript) {
    const t = c.transcript;
    out.push(`  transcript   ${t.tool} session ${t.sessionId} (${t.sessionKind})`, `  source file  ${t.originalPath}`);
    if (t.cwd) out.push(`  project      ${t.cwd}`);
    for (const l of t.lines.slice(0, 20)) out.push(`  line ${l.line} ← JSONL line ${l.sourceLine} · ${l.role} · ${l.origin}${l.timestamp ? ` · ${l.timestamp}` : ''}`);
  }
  out.push('', ...c.text.split('\n').map((l) => `    ${l}`));
  return out.join('\n') + '\n';
}
