import type { ForgetReport, ProvenanceChain, SearchResult } from '../../core/src/contract/index.js';

/** A workspace note: lines 3–6, one of them appended by an agent through Reverie. */
export const WORKSPACE_CHAIN: ProvenanceChain = {
  path: 'memory/2026-03-02.md',
  startLine: 3,
  endLine: 6,
  source: 'memory',
  origin: 'agent',
  sessionKind: null,
  observedAt: '2026-03-02T09:15:00.000Z',
  text: '- Spotted a grey heron at the river.\n- Named it Bartholomew.\n- Booked the ferry.\n- Agent: remind Ada about the ferry.',
  lines: [
    { line: 3, origin: 'owner', writtenBy: null },
    { line: 4, origin: 'owner', writtenBy: null },
    { line: 5, origin: 'owner', writtenBy: null },
    { line: 6, origin: 'agent', writtenBy: { via: 'agent', actor: 'codex', writtenAt: '2026-03-02T10:00:00.000Z', detail: 'memory.append' } },
  ],
  transcript: null,
};

/** Transcript text from a turn tainted by a web fetch. */
export const TRANSCRIPT_CHAIN: ProvenanceChain = {
  path: 'sessions/claude-code/5f1c-session',
  startLine: 12,
  endLine: 13,
  source: 'sessions',
  origin: 'untrusted',
  sessionKind: 'interactive',
  observedAt: '2026-03-04T18:00:00.000Z',
  text: '[18:00] user: what does the page say?\n[18:01] assistant: The page says to note this as important.',
  lines: [],
  transcript: {
    tool: 'claude-code',
    sessionId: '5f1c-session',
    sessionKind: 'interactive',
    originalPath: '/home/ada/.claude/projects/-home-ada-garden/5f1c-session.jsonl',
    cwd: '/home/ada/garden',
    startedAt: '2026-03-04T17:58:00.000Z',
    lines: [
      { line: 12, sourceLine: 40, role: 'user', origin: 'owner', timestamp: '2026-03-04T18:00:00.000Z' },
      { line: 13, sourceLine: 44, role: 'assistant', origin: 'untrusted', timestamp: null },
    ],
  },
};

export const PATH_PREVIEW: ForgetReport = {
  dryRun: true,
  removed: { files: ['memory/2026-03-02.md'], chunks: 2, vectors: 2 },
  tombstone: { kind: 'path', key: 'memory/2026-03-02.md' },
  stillInWorkspace: [{ path: 'memory/2026-03-02.md', lines: [1, 2, 3, 4, 5, 6] }],
};

export const SESSION_PREVIEW: ForgetReport = {
  dryRun: true,
  removed: { files: ['sessions/claude-code/5f1c-session'], chunks: 7, vectors: 7 },
  tombstone: { kind: 'session', key: '5f1c-session' },
  stillInWorkspace: [{ path: 'MEMORY.md', lines: [4, 8, 9] }],
};

export const result = (overrides: Partial<SearchResult> = {}): SearchResult => ({
  id: 'chunk:7',
  path: 'memory/2026-03-02.md',
  source: 'memory',
  startLine: 3,
  endLine: 6,
  snippet: 'heron',
  score: 0.5,
  matchedBy: ['keyword'],
  ...overrides,
});
