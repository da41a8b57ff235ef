import { operations, type AgentScope, type OperationName, type OperationOutput, type SearchResult } from '../contract/index.js';
import { frameMemory, UNTRUSTED_MEMORY_NOTICE } from './framing.js';

/**
 * How one contract operation is offered to agents: what the log records, how memory text is
 * framed. The scope it needs is the operation's `access` in the contract (`scopeOf`).
 */
interface AgentMethod {
  /** What the access log shows for a call: the query, path or session. */
  detail(params: Record<string, unknown>): string | null;
  count(output: unknown): number | null;
  /** Memory text in the answer, wrapped as untrusted data. */
  frame(output: unknown): unknown;
  /** What the contract accepts but an agent call must not send: the reason, or null. */
  refuse?(params: Record<string, unknown>): string | null;
}

const text = (key: string) => (p: Record<string, unknown>) => (typeof p[key] === 'string' ? (p[key] as string) : null);
const none = () => null;
const asIs = (o: unknown) => o;

/** Agents reach exactly these operations, under the same names as the contract. */
export const AGENT_METHODS: Partial<Record<OperationName, AgentMethod>> = {
  status: { detail: none, count: none, frame: asIs },
  'memory.search': {
    detail: text('query'),
    // The window may search for nothing (it shows recent files); an agent asking for nothing has a bug to see.
    refuse: (p) => (typeof p.query === 'string' && p.query.trim() === '' ? 'memory.search: field "query": must not be empty: say what to look for.' : null),
    count: (o) => (o as OperationOutput<'memory.search'>).results.length,
    frame: (o) => {
      const out = o as OperationOutput<'memory.search'>;
      return {
        notice: UNTRUSTED_MEMORY_NOTICE,
        tookMs: out.tookMs,
        results: out.results.map((r: SearchResult) => ({
          ...r,
          snippet: frameMemory(r.snippet, { source: `${r.path}#L${r.startLine}-L${r.endLine}`, origin: r.origin }),
        })),
      };
    },
  },
  'memory.get': {
    detail: text('path'),
    count: (o) => (o as OperationOutput<'memory.get'>).lines,
    frame: (o) => {
      const out = o as OperationOutput<'memory.get'>;
      return { notice: UNTRUSTED_MEMORY_NOTICE, ...out, text: frameMemory(out.text, { source: `${out.path}#L${out.from}-L${out.from + Math.max(0, out.lines - 1)}`, origin: out.origin }) };
    },
  },
  'sessions.get': {
    detail: text('sessionId'),
    count: (o) => (o as OperationOutput<'sessions.get'>).lines.length,
    frame: (o) => {
      const out = o as OperationOutput<'sessions.get'>;
      return { notice: UNTRUSTED_MEMORY_NOTICE, ...out, lines: out.lines.map((l) => ({ ...l, text: frameMemory(l.text, { source: `${out.path}#L${l.line}`, origin: l.origin }) })) };
    },
  },
  'memory.store': { detail: text('text'), count: none, frame: asIs },
  // Hooks ingest the transcripts of the tools' own homes; an agent never names a folder to read.
  'sessions.ingest': {
    detail: none,
    count: (o) => (o as OperationOutput<'sessions.ingest'>).transcripts,
    frame: asIs,
    refuse: (p) => (p.homes !== undefined && Object.keys(p.homes as object).length > 0 ? 'sessions.ingest: field "homes": agents cannot name folders; call it with no arguments.' : null),
  },
  'memory.update': { detail: text('ref'), count: none, frame: asIs },
  'memory.forget': { detail: text('ref'), count: none, frame: asIs },
  'memory.recent': {
    detail: text('project'),
    count: (o) => (o as OperationOutput<'memory.recent'>).entries.length,
    frame: (o) => {
      const out = o as OperationOutput<'memory.recent'>;
      return {
        notice: UNTRUSTED_MEMORY_NOTICE,
        ...out,
        entries: out.entries.map((e) => ({ ...e, text: frameMemory(e.text, { source: `${e.path}#L${e.line}`, origin: e.origin }) })),
        changes: out.changes.map((c) => ({ ...c, before: frameMemory(c.before, { source: `${c.path}#L${c.line}` }), after: c.after === null ? null : frameMemory(c.after, { source: `${c.path}#L${c.line}` }) })),
      };
    },
  },
  'context.bootstrap': { detail: text('project'), count: (o) => (o as OperationOutput<'context.bootstrap'>).files.length, frame: asIs },
  'context.match': {
    detail: text('message'),
    count: (o) => {
      const out = o as OperationOutput<'context.match'>;
      return out.entries.length + out.intents.length;
    },
    frame: (o) => {
      const out = o as OperationOutput<'context.match'>;
      return { notice: UNTRUSTED_MEMORY_NOTICE, ...out, entries: out.entries.map((e) => ({ ...e, text: frameMemory(e.text, { source: `${e.path}:${e.line}`, origin: e.origin }) })) };
    },
  },
  'intents.create': { detail: text('description'), count: none, frame: asIs },
  'intents.list': { detail: none, count: (o) => (o as OperationOutput<'intents.list'>).intents.length, frame: asIs },
  'intents.cancel': { detail: text('id'), count: none, frame: asIs },
};

/** The scope an agent's token needs for an operation: the contract's `access` for it. */
export function scopeOf(method: OperationName): AgentScope {
  return operations[method].access;
}
