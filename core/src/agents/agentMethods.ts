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
}

const text = (key: string) => (p: Record<string, unknown>) => (typeof p[key] === 'string' ? (p[key] as string) : null);
const none = () => null;
const asIs = (o: unknown) => o;

/** Agents reach exactly these operations, under the same names as the contract. */
export const AGENT_METHODS: Partial<Record<OperationName, AgentMethod>> = {
  status: { detail: none, count: none, frame: asIs },
  'memory.search': {
    detail: text('query'),
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
