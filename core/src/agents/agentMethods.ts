import type { AgentScope, OperationName, OperationOutput, SearchResult } from '../contract/index.js';
import { frameMemory, UNTRUSTED_MEMORY_NOTICE } from './framing.js';

/** How one contract operation is offered to agents: the scope it needs, what the log records, how memory text is framed. */
interface AgentMethod {
  scope: AgentScope;
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
  status: { scope: 'read', detail: none, count: none, frame: asIs },
  'memory.search': {
    scope: 'read',
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
    scope: 'read',
    detail: text('path'),
    count: (o) => (o as OperationOutput<'memory.get'>).lines,
    frame: (o) => {
      const out = o as OperationOutput<'memory.get'>;
      return { notice: UNTRUSTED_MEMORY_NOTICE, ...out, text: frameMemory(out.text, { source: `${out.path}#L${out.from}-L${out.from + Math.max(0, out.lines - 1)}`, origin: out.origin }) };
    },
  },
  'sessions.get': {
    scope: 'read',
    detail: text('sessionId'),
    count: (o) => (o as OperationOutput<'sessions.get'>).lines.length,
    frame: (o) => {
      const out = o as OperationOutput<'sessions.get'>;
      return { notice: UNTRUSTED_MEMORY_NOTICE, ...out, lines: out.lines.map((l) => ({ ...l, text: frameMemory(l.text, { source: `${out.path}#L${l.line}`, origin: l.origin }) })) };
    },
  },
  'memory.store': { scope: 'write', detail: text('text'), count: none, frame: asIs },
  'context.bootstrap': { scope: 'read', detail: text('project'), count: (o) => (o as OperationOutput<'context.bootstrap'>).files.length, frame: asIs },
  'context.match': {
    scope: 'read',
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
  'intents.create': { scope: 'read', detail: text('description'), count: none, frame: asIs },
  'intents.list': { scope: 'read', detail: none, count: (o) => (o as OperationOutput<'intents.list'>).intents.length, frame: asIs },
  'intents.cancel': { scope: 'read', detail: text('id'), count: none, frame: asIs },
};
