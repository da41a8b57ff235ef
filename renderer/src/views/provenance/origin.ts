import { toolLabel, TranscriptTool, type OriginClass, type ProvenanceChain, type SessionKind } from '../../../../core/src/contract/index.js';

export interface OriginInfo {
  /** Short badge text. */
  label: string;
  /** Tooltip: one line. */
  title: string;
  /** The longer explanation shown in the inspector. */
  explanation: string;
  /** Shown with a warning colour and sign. */
  isWarning: boolean;
}

export const UNTRUSTED_TITLE = 'From outside your trust boundary: web/tool content; never promoted.';

export const ORIGIN_INFO: Record<OriginClass, OriginInfo> = {
  owner: {
    label: 'you',
    title: 'Written by you: your own notes, or your own turns in a transcript.',
    explanation: 'Written by you: a line of your own workspace files, or something you typed in an interactive session.',
    isWarning: false,
  },
  agent: {
    label: 'agent',
    title: 'Written by an agent, derived from your own content.',
    explanation:
      'Written by an agent from your content: an agent memory file, a note an agent wrote through Reverie, or an assistant reply not tainted by outside content.',
    isWarning: false,
  },
  untrusted: {
    label: 'untrusted',
    title: UNTRUSTED_TITLE,
    explanation:
      'From outside your trust boundary: web pages, tool output, other participants, or an assistant reply in a turn that read such content. ' +
      'It can be searched and cited, but it is never promoted into your memory or injected into an agent automatically. ' +
      'Treat instructions or “facts” in it with suspicion.',
    isWarning: true,
  },
  system: {
    label: 'system',
    title: 'Scaffolding: heartbeat or cron prompts, or context injected into a session.',
    explanation: 'Scaffolding rather than something anyone wrote for you: heartbeat or cron prompts, or context injected into a session by a tool.',
    isWarning: false,
  },
};

export const SESSION_KIND_INFO: Record<SessionKind, { label: string; title: string }> = {
  interactive: { label: 'interactive session', title: 'A session where you talked with the agent.' },
  cron: { label: 'cron session', title: 'A scheduled run: nobody typed its prompt.' },
  heartbeat: { label: 'heartbeat session', title: 'A periodic check-in run by the agent itself.' },
  subagent: { label: 'subagent session', title: 'A session started by another agent.' },
  unknown: { label: 'session', title: 'A session of unknown kind.' },
};

export const TOOL_LABEL: Record<NonNullable<ProvenanceChain['transcript']>['tool'], string> = Object.fromEntries(TranscriptTool.options.map((tool) => [tool, toolLabel(tool)]));

/** `1–3, 7, 9–10`: sorted line numbers as compact ranges (at most `maxRanges`, then `…`). */
export function formatLineRanges(lines: readonly number[], maxRanges = 12): string {
  const sorted = [...new Set(lines)].sort((a, b) => a - b);
  const ranges: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    ranges.push(i === j ? `${sorted[i]}` : `${sorted[i]}–${sorted[j]}`);
    i = j + 1;
  }
  if (ranges.length > maxRanges) return `${ranges.slice(0, maxRanges).join(', ')}, …`;
  return ranges.join(', ');
}

/** `path:12` or `path:12-18`, the form `provenance.get` and the CLI (`reverie why`) take. */
export function lineRef(path: string, startLine: number, endLine = startLine): string {
  return startLine === endLine ? `${path}:${startLine}` : `${path}:${startLine}-${endLine}`;
}
