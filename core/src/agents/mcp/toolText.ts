import type { OperationOutput, SearchResult } from '../../contract/index.js';
import { UNTRUSTED_MEMORY_NOTICE } from '../framing.js';

/**
 * What an MCP client reads of each answer: plain text a model can use directly. Memory text
 * arrives already framed (`<reverie-memory …>`, see agentMethods.ts); every answer carrying
 * memory starts with the notice that it is data, not instructions.
 */

type Framed<T> = T & { notice?: string };

const withNotice = (body: string) => `${UNTRUSTED_MEMORY_NOTICE}\n\n${body}`;

export function searchText(output: Framed<OperationOutput<'memory.search'>>): string {
  if (output.results.length === 0) return withNotice('No results.');
  const blocks = output.results.map((r: SearchResult, i) => {
    const facts = [`score ${r.score.toFixed(3)}`, `origin ${r.origin ?? 'unknown'}`, `source ${r.source}`, ...(r.sessionKind ? [`session ${r.sessionKind}`] : [])];
    const alsoIn = (r.alsoIn ?? []).map((p) => `\nalso in ${p.path} lines ${p.startLine}-${p.endLine}`).join('');
    return `[${i + 1}] ${r.path} lines ${r.startLine}-${r.endLine} (${facts.join(', ')})\n${r.snippet}${alsoIn}`;
  });
  return withNotice(`${output.results.length} result${output.results.length === 1 ? '' : 's'}:\n\n${blocks.join('\n\n')}`);
}

export function memoryGetText(output: Framed<OperationOutput<'memory.get'>>): string {
  const last = output.from + Math.max(0, output.lines - 1);
  return withNotice(`${output.path} lines ${output.from}-${last} of ${output.totalLines} (origin ${output.origin}):\n${output.text}`);
}

export function sessionExcerptText(output: Framed<OperationOutput<'sessions.get'>>): string {
  const head = `Session ${output.sessionId} (${output.tool}, ${output.sessionKind}) from ${output.path}, ${output.lines.length} of ${output.totalLines} lines:`;
  const lines = output.lines.map((l) => `line ${l.line}, ${l.role}${l.timestamp ? `, ${l.timestamp}` : ''}:\n${l.text}`);
  return withNotice([head, ...lines].join('\n\n'));
}

/** Already starts with the notice and frames each file (context/bootstrap.ts). */
export function bootstrapText(output: OperationOutput<'context.bootstrap'>): string {
  return output.text.startsWith(UNTRUSTED_MEMORY_NOTICE) ? output.text : withNotice(output.text);
}

export function contextMatchText(output: Framed<OperationOutput<'context.match'>>): string {
  const entries = output.entries.map((e) => `${e.path}:${e.line} (score ${e.score.toFixed(2)}, triggers: ${e.triggers.join(', ')}, origin ${e.origin})\n${e.text}`);
  const intents = output.intents.map((i) => `Standing intent ${i.id}: ${i.description} (keywords: ${i.keywords.join(', ')}; fired ${i.fired}/${i.fireBudget})`);
  if (entries.length === 0 && intents.length === 0) return withNotice('No curated entry or standing intent matches this message.');
  return withNotice([...(entries.length ? [`Matching entries:`, ...entries] : []), ...(intents.length ? [`Matching standing intents:`, ...intents] : [])].join('\n\n'));
}

export function storeText(output: OperationOutput<'memory.store'>): string {
  if (output.stored) return `Stored in ${output.path} at line ${output.line} (ref ${output.ref}).`;
  const dup = output.duplicateOf ?? { path: output.path, line: output.line };
  return `Not stored: duplicate of ${dup.path} line ${dup.line}, stored recently with the same content.`;
}

export function intentText(verb: string, intent: OperationOutput<'intents.create'>): string {
  return `${verb} standing intent ${intent.id} (${intent.status}): ${intent.description}. Keywords: ${intent.keywords.join(', ')}; ${intent.project ? `project ${intent.project}; ` : ''}fires at most ${intent.fireBudget} times (fired ${intent.fired}), cooldown ${intent.cooldownHours} h, expires ${intent.expiresAt}.`;
}

export function intentListText(output: OperationOutput<'intents.list'>): string {
  if (output.intents.length === 0) return 'No standing intents.';
  return output.intents.map((i) => `${i.id} (${i.status}): ${i.description} [keywords: ${i.keywords.join(', ')}; fired ${i.fired}/${i.fireBudget}; expires ${i.expiresAt}]`).join('\n');
}

export function updateText(output: OperationOutput<'memory.update'>): string {
  if (output.outcome === 'proposed') return `The person wrote ${output.path} line ${output.line}: your correction is proposal ${output.proposalId}, which they review in Reverie; their line is unchanged.`;
  return `Updated ${output.path} line ${output.line}; its ref is now ${output.ref}.`;
}

export function forgetText(output: OperationOutput<'memory.forget'>): string {
  return `Removed ${output.path} line ${output.line} (kept in its history).`;
}

export function recentText(output: Framed<OperationOutput<'memory.recent'>>): string {
  const entries = output.entries.map((e) => `${e.ref} (origin ${e.origin}${e.agent ? `, by ${e.agent}` : ''}${e.project ? `, project ${e.project}` : ''})\n${e.text}`);
  const changes = output.changes.map((c) => `${c.at} ${c.agent ?? 'someone'} ${c.action} ${c.path} line ${c.line}`);
  const files = output.changedFiles.map((f) => `${f.path} modified ${f.modifiedAt}`);
  const head = output.since ? `Since your last look (${output.since}):` : 'First look (no earlier one recorded):';
  return withNotice(
    [
      entries.length ? `${entries.length} recent entr${entries.length === 1 ? 'y' : 'ies'}, newest first:\n\n${entries.join('\n\n')}` : 'No entries in the recent daily notes.',
      `${head} ${changes.length} change${changes.length === 1 ? '' : 's'}${changes.length ? `:\n${changes.join('\n')}` : '.'}`,
      files.length ? `Files modified:\n${files.join('\n')}` : 'No memory file modified.',
    ].join('\n\n'),
  );
}
